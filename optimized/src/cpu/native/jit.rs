//! One Cranelift JIT module per compiled kernel: the host ISA, the
//! kernel's signature, and the finalised code, freed when the kernel is
//! dropped.
//!
//! A lambda outside the compiled class is refused by the translator (the
//! SOAC runs on the other paths, by design). Code that the translator
//! emitted but Cranelift rejects (its verifier, or a panic while building)
//! is a defect of the translator: the SOAC still runs on the other paths,
//! with the same results, but the rejection is counted
//! ([`kernel_rejections`]) so that tests and campaigns can require none.

use cranelift_codegen::ir::{types, AbiParam, Signature, StackSlotData, StackSlotKind};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::translate::{HelperSignatures, Translator};

/// A kernel: `(env, lo, hi, acc) -> status`, running elements `lo..hi`;
/// status 0 is success, anything else a failure.
pub type KernelFn = unsafe extern "C" fn(*const u64, i64, i64, *mut u64) -> i32;

/// The finalised code of one kernel.
pub struct Jit {
    module: Option<JITModule>,
    pub entry: KernelFn,
}

// SAFETY: after `finalize_definitions` the module is never mutated again
// (until `Drop`, which has exclusive access); the code it holds is
// immutable and callable from any thread.
unsafe impl Send for Jit {}
// SAFETY: as above; `&Jit` only gives access to the function pointer.
unsafe impl Sync for Jit {}

impl Drop for Jit {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: the only pointer into the module's memory is `entry`,
            // which dies with `self`.
            unsafe { module.free_memory() };
        }
    }
}

/// The parameters of a kernel while its body is built.
pub struct KernelParams {
    pub env: cranelift_codegen::ir::Value,
    pub lo: cranelift_codegen::ir::Value,
    pub hi: cranelift_codegen::ir::Value,
    pub acc: cranelift_codegen::ir::Value,
}

/// Kernels whose code Cranelift rejected, or whose construction panicked,
/// in this process.
static REJECTED: AtomicU64 = AtomicU64::new(0);

/// The first such rejection's message.
static FIRST_REJECTION: Mutex<Option<String>> = Mutex::new(None);

/// How many kernels Cranelift rejected in this process (each a translator
/// defect; their SOACs ran on the other paths), and the first rejection's
/// message.
pub fn kernel_rejections() -> (u64, Option<String>) {
    let first = FIRST_REJECTION.lock().map_or(None, |m| m.clone());
    (REJECTED.load(Ordering::Relaxed), first)
}

fn record_rejection(message: String) {
    REJECTED.fetch_add(1, Ordering::Relaxed);
    if let Ok(mut first) = FIRST_REJECTION.lock() {
        first.get_or_insert(message);
    }
}

/// Why no kernel was built.
enum Refusal {
    /// The host has no Cranelift back end, or the lambda is outside the
    /// compiled class: by design.
    Unavailable,
    /// Cranelift rejected the translator's code: a defect.
    Rejected(String),
}

/// Builds and finalises one kernel; `body` emits its code from the entry
/// block on (with a translator whose failure block returns 1) and returns
/// `None` when the lambda is outside the compiled class. A Cranelift error
/// or a panic also gives `None`, and is counted ([`kernel_rejections`]).
pub fn compile(
    body: impl FnOnce(&mut Translator<'_, '_>, KernelParams) -> Option<()>,
) -> Option<Jit> {
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_inner(body)))
        .unwrap_or_else(|payload| {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(Refusal::Rejected(format!("panic: {message}")))
        });
    match built {
        Ok(jit) => Some(jit),
        Err(Refusal::Unavailable) => None,
        Err(Refusal::Rejected(message)) => {
            record_rejection(message);
            None
        }
    }
}

fn compile_inner(
    body: impl FnOnce(&mut Translator<'_, '_>, KernelParams) -> Option<()>,
) -> Result<Jit, Refusal> {
    let rejected = |e: &dyn std::fmt::Display| Refusal::Rejected(e.to_string());
    let mut flags = settings::builder();
    let host = |r: Result<(), _>| r.map_err(|_| Refusal::Unavailable);
    host(flags.set("opt_level", "speed"))?;
    host(flags.set("use_colocated_libcalls", "false"))?;
    host(flags.set("is_pic", "false"))?;
    let isa = cranelift_native::builder()
        .map_err(|_| Refusal::Unavailable)?
        .finish(settings::Flags::new(flags))
        .map_err(|_| Refusal::Unavailable)?;
    let call_conv = isa.default_call_conv();
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    ));
    let mut context = module.make_context();
    let signature = &mut context.func.signature;
    for _ in 0..4 {
        signature.params.push(AbiParam::new(types::I64));
    }
    signature.returns.push(AbiParam::new(types::I32));
    let id = module
        .declare_function("kernel", Linkage::Local, &context.func.signature)
        .map_err(|e| rejected(&e))?;
    let mut function_context = FunctionBuilderContext::new();
    {
        let mut builder = FunctionBuilder::new(&mut context.func, &mut function_context);
        let mut binop = Signature::new(call_conv);
        binop.params.push(AbiParam::new(types::I32));
        binop.params.push(AbiParam::new(types::I32));
        binop.params.push(AbiParam::new(types::I64));
        binop.params.push(AbiParam::new(types::I64));
        binop.params.push(AbiParam::new(types::I64));
        binop.returns.push(AbiParam::new(types::I32));
        let mut unary = Signature::new(call_conv);
        unary.params.push(AbiParam::new(types::I32));
        unary.params.push(AbiParam::new(types::I32));
        unary.params.push(AbiParam::new(types::I64));
        unary.returns.push(AbiParam::new(types::I64));
        let signatures = HelperSignatures {
            binop: builder.import_signature(binop),
            unary: builder.import_signature(unary),
        };
        let scratch =
            builder.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let entry = builder.create_block();
        builder.append_block_params_for_function_params(entry);
        let fail = builder.create_block();
        builder.switch_to_block(entry);
        let p = builder.block_params(entry).to_vec();
        let params = KernelParams {
            env: p[0],
            lo: p[1],
            hi: p[2],
            acc: p[3],
        };
        {
            let mut translator = Translator::new(&mut builder, fail, scratch, signatures);
            body(&mut translator, params).ok_or(Refusal::Unavailable)?;
        }
        builder.switch_to_block(fail);
        let one = cranelift_codegen::ir::InstBuilder::iconst(builder.ins(), types::I32, 1);
        cranelift_codegen::ir::InstBuilder::return_(builder.ins(), &[one]);
        builder.seal_all_blocks();
        builder.finalize();
    }
    module
        .define_function(id, &mut context)
        .map_err(|e| rejected(&format!("{e:?}")))?;
    module.clear_context(&mut context);
    module.finalize_definitions().map_err(|e| rejected(&e))?;
    let code = module.get_finalized_function(id);
    // SAFETY: the function was declared with exactly `KernelFn`'s
    // signature in the host's default calling convention ("C").
    let entry: KernelFn = unsafe { std::mem::transmute::<*const u8, KernelFn>(code) };
    Ok(Jit {
        module: Some(module),
        entry,
    })
}
