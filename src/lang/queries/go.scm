; Go symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec
  name: (type_identifier) @name
  type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (function_type)
         (map_type) (slice_type) (array_type) (channel_type) (negated_type)]) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(method_elem name: (field_identifier) @name) @definition.method
(field_declaration name: (field_identifier) @name) @definition.field
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.const))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.static))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.static)))
