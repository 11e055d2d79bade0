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

; ES5 classes: `Foo.prototype.bar = function () {…}`, a method borrowed by name
; (`Stack.prototype.has = stackHas`), and other values set on a prototype (fields:
; `Matrix2.prototype.isMatrix2 = true`). One node, one name: method wins over field.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression property: (property_identifier) @_prototype)
      property: (property_identifier) @name)
    right: [(function_expression) (arrow_function) (generator_function) (identifier) (member_expression)])
  (#eq? @_prototype "prototype")) @definition.method
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression property: (property_identifier) @_prototype)
      property: (property_identifier) @name))
  (#eq? @_prototype "prototype")) @definition.field
; Functions set on `this` (`this.render = function () {…}` in a constructor) or on a named
; object (`Foo.create = () => …`) are its methods; CommonJS `exports.name = …` at top level
; defines the module's functions and constants.
(expression_statement
  (assignment_expression
    left: (member_expression object: (this) property: (property_identifier) @name)
    right: [(function_expression) (arrow_function) (generator_function)])) @definition.method
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_owner property: (property_identifier) @name)
    right: [(function_expression) (arrow_function) (generator_function)])
  (#not-any-of? @_owner "exports" "module")) @definition.method
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)])
    (#eq? @_exports "exports")) @definition.function)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @_exports property: (property_identifier) @name))
    (#eq? @_exports "exports")) @definition.constant)
; `module.exports.name = …` as `exports.name = …`.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)])
    (#eq? @_module "module")
    (#eq? @_exports "exports")) @definition.function)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        property: (property_identifier) @name))
    (#eq? @_module "module")
    (#eq? @_exports "exports")) @definition.constant)
; Object-literal keys whose value is a function (`{ convert: function (c) {…} }`), as
; `{ convert(c) {…} }` is.
(pair
  key: [(property_identifier) @name (string (string_fragment) @name)]
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.method
