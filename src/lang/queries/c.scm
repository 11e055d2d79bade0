; C symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
; A function that returns a pointer to a function or to an array (`void (*signal(int, void
; (*)(int)))(int) {…}`, `int (*rows(void))[3] {…}`): its name is inside the parentheses.
(function_definition
  declarator: [(function_declarator declarator: (parenthesized_declarator (pointer_declarator
                 declarator: (function_declarator declarator: (identifier) @name))))
               (array_declarator declarator: (parenthesized_declarator (pointer_declarator
                 declarator: (function_declarator declarator: (identifier) @name))))]) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.variant
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @definition.field
; Rare shapes: functions defined through macros.
; A function defined through an all-caps macro (`BPF_CALL_0(bpf_get_numa_node_id) {…}` reads as
; `BPF_CALL_0 (name)`): named by the macro's argument, never by the macro.
(function_definition
  type: (type_identifier) @_macro
  declarator: (parenthesized_declarator (identifier) @name)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.function
; A function declared by a macro with several arguments (`BPF_CALL_2(bpf_map_lookup_elem,
; struct bpf_map *, map, void *, key) {…}`, `SYSCALL_DEFINE1(name, …)`) reads as a call missing
; its `;` followed by a block: at top level (or in a `#if` there) the call is the definition,
; named by the macro's first argument, and the block its body (see `c.rs`). In a function body
; the same shape is a loop macro (`TAILQ_FOREACH(v, head, f) {…}`), not a definition.
(translation_unit
  (expression_statement
    (call_expression
      function: (identifier) @_macro
      arguments: (argument_list . (identifier) @name))) @definition.function
  .
  (compound_statement)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))
(preproc_if
  (expression_statement
    (call_expression
      function: (identifier) @_macro
      arguments: (argument_list . (identifier) @name))) @definition.function
  .
  (compound_statement)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))
(preproc_ifdef
  (expression_statement
    (call_expression
      function: (identifier) @_macro
      arguments: (argument_list . (identifier) @name))) @definition.function
  .
  (compound_statement)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))
(preproc_else
  (expression_statement
    (call_expression
      function: (identifier) @_macro
      arguments: (argument_list . (identifier) @name))) @definition.function
  .
  (compound_statement)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))
(preproc_elif
  (expression_statement
    (call_expression
      function: (identifier) @_macro
      arguments: (argument_list . (identifier) @name))) @definition.function
  .
  (compound_statement)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$"))
