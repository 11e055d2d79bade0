; Bash symbols, tree-sitter tags style: the item @definition.KIND, its name @name.
(function_definition name: (word) @name) @definition.function
(program (declaration_command (variable_assignment name: (variable_name) @name)) @definition.constant)
(program (variable_assignment name: (variable_name) @name) @definition.constant)
