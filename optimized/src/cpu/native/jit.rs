//! One Cranelift JIT module per compiled kernel: the host ISA, the
//! kernel's signature, and the finalised code, freed when the kernel is
//! dropped.

use cranelift_codegen::ir::{types, AbiParam, Signature, StackSlotData, StackSlotKind};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};

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

/// Builds and finalises one kernel; `body` emits its code from the entry
/// block on (with a translator whose failure block returns 1) and returns
/// `None` when the lambda is outside the compiled class. Any Cranelift
/// error (or panic) also gives `None`.
pub fn compile(
    body: impl FnOnce(&mut Translator<'_, '_>, KernelParams) -> Option<()>,
) -> Option<Jit> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_inner(body)))
        .ok()
        .flatten()
}

fn compile_inner(
    body: impl FnOnce(&mut Translator<'_, '_>, KernelParams) -> Option<()>,
) -> Option<Jit> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    flags.set("use_colocated_libcalls", "false").ok()?;
    flags.set("is_pic", "false").ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
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
        .ok()?;
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
            body(&mut translator, params)?;
        }
        builder.switch_to_block(fail);
        let one = cranelift_codegen::ir::InstBuilder::iconst(builder.ins(), types::I32, 1);
        cranelift_codegen::ir::InstBuilder::return_(builder.ins(), &[one]);
        builder.seal_all_blocks();
        builder.finalize();
    }
    module.define_function(id, &mut context).ok()?;
    module.clear_context(&mut context);
    module.finalize_definitions().ok()?;
    let code = module.get_finalized_function(id);
    // SAFETY: the function was declared with exactly `KernelFn`'s
    // signature in the host's default calling convention ("C").
    let entry: KernelFn = unsafe { std::mem::transmute::<*const u8, KernelFn>(code) };
    Some(Jit {
        module: Some(module),
        entry,
    })
}
