; C++ symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)
                 (qualified_identifier name: (_) @name)] @name)) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)
                   (qualified_identifier name: (_) @name)] @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)
                   (qualified_identifier name: (_) @name)] @name))) @definition.function
(field_declaration
  declarator: (function_declarator
    declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(declaration
  declarator: (function_declarator
    declarator: [(identifier) (destructor_name)] @name)
  (#match? @name "^~")) @definition.function
(class_specifier name: [(type_identifier) (template_type)] @name body: (_)) @definition.class
(struct_specifier name: [(type_identifier) (template_type)] @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.variant
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @definition.field
