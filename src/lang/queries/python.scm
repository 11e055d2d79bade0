; Python symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
; Functions (async too) and classes anywhere; assignments (`a = 1`, `a = b = 1`, `c, d = 2, 3`,
; `x += 1`, `x: int = 1`) directly at module level (constants) or in a class body (fields), and
; in the blocks of an if/for/while/with/try statement there.
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

; module level
(module (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant)
(module [(if_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant)) (for_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant)) (while_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant)) (with_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant)) (try_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant))])
(module [(if_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant))) (for_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant))) (while_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant))) (with_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant))) (try_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.constant)))])
; class level
(class_definition body: (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field))
(class_definition body: (block [(if_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field)) (for_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field)) (while_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field)) (with_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field)) (try_statement (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field))]))
(class_definition body: (block [(if_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field))) (for_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field))) (while_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field))) (with_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field))) (try_statement (_ (block (expression_statement
  [(assignment left: (identifier) @name)
   (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)])
   (assignment right: (assignment left: (identifier) @name))
   (assignment right: (assignment right: (assignment left: (identifier) @name)))
   (augmented_assignment left: (identifier) @name)]) @definition.field)))]))
