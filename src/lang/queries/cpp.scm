; C++ symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
; A qualified name (`a::b::f`) is captured whole: the outline names it by its last name
; (`innermost` in cpp.rs), which a nested `(qualified_identifier name: (_) @name)` would only
; repeat.
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)
                 (qualified_identifier)] @name)) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)
                   (qualified_identifier)] @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)
                   (qualified_identifier)] @name))) @definition.function
(field_declaration
  declarator: (function_declarator
    declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
; A conversion operator (`operator bool() const`), defined or declared in its class or defined
; outside it (`K::operator bool() const {…}`): named `operator bool`.
(function_definition declarator: [(operator_cast) (qualified_identifier name: (operator_cast))] @name) @definition.function
(field_declaration_list (declaration declarator: (operator_cast) @name) @definition.function)
; A function that returns a pointer to a function or to an array: its name is inside the
; parentheses (as in C).
(function_definition
  declarator: [(function_declarator declarator: (parenthesized_declarator (pointer_declarator
                 declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))))
               (array_declarator declarator: (parenthesized_declarator (pointer_declarator
                 declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))))]) @definition.function
(declaration
  declarator: (function_declarator
    declarator: [(identifier) (destructor_name)] @name)
  (#match? @name "^~")) @definition.function
; Member functions declared in their class that return a pointer or a reference
; (`T& get();`), and constructors declared there (`Shape();`, `K(int);`: a declaration without
; a type). An all-caps name with an underscore in a class body is a macro
; (`DISALLOW_COPY_AND_ASSIGN(K);`).
(field_declaration
  declarator: [(pointer_declarator declarator: (function_declarator
                 declarator: [(field_identifier) (operator_name)] @name))
               (reference_declarator (function_declarator
                 declarator: [(field_identifier) (operator_name)] @name))]) @definition.function
(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: (identifier) @name)
    (#not-match? @name "^[A-Z][A-Z0-9]*_[A-Z0-9_]*$")) @definition.function)
; A specialization (`struct hash<Key> {…}`) is named by its template (`hash`), a nested class
; defined outside its class (`class A<T>::B {…}`) by its last name.
(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name)] body: (_)) @definition.class
(struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name)] body: (_)) @definition.struct
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
; typedefs of pointers, references, arrays and function pointers.
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (reference_declarator (type_identifier) @name)) @definition.type
(type_definition declarator: (array_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type

; Rare shapes: error recovery around macros.
; Macros tree-sitter cannot expand. An all-caps attribute macro before a class's name
; (`class GTEST_API_ Foo {`, `struct BOOST_SYMBOL_VISIBLE not_a_dag : bad_graph {`) reads as a
; function `Foo` returning `class GTEST_API_`: the class is the name after the macro.
(function_definition
  type: (class_specifier name: (type_identifier) @_macro !body)
  declarator: [(identifier) @name (template_function name: (identifier) @name)]
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.class
(function_definition
  type: (struct_specifier name: (type_identifier) @_macro !body)
  declarator: [(identifier) @name (template_function name: (identifier) @name)]
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.struct
; (With a qualified base, `struct BOOST_SYMBOL_VISIBLE bad_graph : public std::invalid_argument {`,
; the name is left in an ERROR and the base reads as the declarator.)
(function_definition
  type: (struct_specifier name: (type_identifier) @_macro !body)
  (ERROR . (identifier) @name)
  declarator: (qualified_identifier)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.struct
(function_definition
  type: (class_specifier name: (type_identifier) @_macro !body)
  (ERROR . (identifier) @name)
  declarator: (qualified_identifier)
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.class
; An all-caps macro after the parameters (`int size() const BOOST_ASIO_NOEXCEPT {`) reads as
; the declarator, the real one left in an ERROR before it.
(function_definition
  (ERROR
    (function_declarator
      declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)
                   (qualified_identifier)] @name))
  declarator: [(identifier) (field_identifier)] @_macro
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.function
; An all-caps macro before a pointer's return type (`GTEST_API_ Foo* Get() {`) reads as the
; type, the return type as a scope.
(function_definition
  type: (type_identifier) @_macro
  declarator: (qualified_identifier
    name: (pointer_type_declarator
      declarator: (function_declarator declarator: (type_identifier) @name)))
  (#match? @_macro "^[A-Z][A-Z0-9_]*$")) @definition.function
