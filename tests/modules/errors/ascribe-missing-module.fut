-- error: rule 37: the module does not match the module type: missing module N
-- a missing module.
module M = {} : {module N: {}}
