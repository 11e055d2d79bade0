; TypeScript and TSX symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_body [(property_identifier) @name (enum_assignment name: (property_identifier) @name)] @definition.variant)
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module
(module name: [(identifier) (nested_identifier)] @name) @definition.module
; An ambient module named by a string (`declare module "foo" { … }`) is named `foo`.
(module name: (string (string_fragment) @name)) @definition.module
; Constants of a namespace or module body, as of the file's top level.
(internal_module
  body: (statement_block
    (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant))
(internal_module
  body: (statement_block
    (export_statement
      (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant)))
(module
  body: (statement_block
    (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant))
(module
  body: (statement_block
    (export_statement
      (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant)))
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(interface_body (method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body (method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.field
(interface_body (property_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.field)
; A construct signature (`new (…): T` in an interface) is the constructor it declares, named
; `new` as TypeScript's own lib declares them.
(interface_body (construct_signature "new" @name) @definition.method)
