; Shared by javascript.scm and typescript.scm (appended to each): definitions written the same
; way in both grammars.
; `const f = () => {…}` and `const f = function () {…}` anywhere; other top-level `const`s.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(program (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant)
(program (export_statement (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant))

; ES5 classes: `Foo.prototype.bar = function () {…}`.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression property: (property_identifier) @_prototype)
      property: (property_identifier) @name)
    right: [(function_expression) (arrow_function)])
  (#eq? @_prototype "prototype")) @definition.method
