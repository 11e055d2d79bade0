; C# symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.variant
(delegate_declaration name: (identifier) @name) @definition.type
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
(method_declaration name: (identifier) @name) @definition.method
(operator_declaration operator: _ @name) @definition.method
; A conversion operator (`implicit operator decimal(Money m)`) is named `operator decimal`.
(conversion_operator_declaration type: _ @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
; An indexer (`public int this[int i]`) is named `this`, as C# calls it.
(indexer_declaration "this" @name) @definition.method
(property_declaration name: (identifier) @name) @definition.field
(event_declaration name: (identifier) @name) @definition.field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
