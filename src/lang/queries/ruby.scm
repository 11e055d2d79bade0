; Ruby symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
(class name: [(constant) (scope_resolution name: (_) @name)] @name) @definition.class
(module name: [(constant) (scope_resolution name: (_) @name)] @name) @definition.module
(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)
