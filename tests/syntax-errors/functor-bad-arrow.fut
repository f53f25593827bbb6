module f = \(x : {}) => x
