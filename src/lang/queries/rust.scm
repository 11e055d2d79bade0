; Rust symbols: the item @KIND (tags style `@definition.KIND` works too), its name @name.
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(union_item name: (type_identifier) @name) @union
(enum_item name: (type_identifier) @name) @enum
(enum_variant name: (identifier) @name) @variant
(trait_item name: (type_identifier) @name) @trait
(impl_item type: (_) @name) @impl
(type_item name: (type_identifier) @name) @type
(associated_type name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @const
(static_item name: (identifier) @name) @static
(mod_item name: (identifier) @name) @module
(macro_definition name: (identifier) @name) @macro
(field_declaration name: (field_identifier) @name) @field
