
use builtin;
use str;

set edit:completion:arg-completer[llm] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'llm'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'llm'= {
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand search 'Regex or literal text search over files and directories (ripgrep''s engine)'
            cand ast 'Tree-sitter query search over the files of 13 languages; `--tree` prints a file''s syntax tree'
            cand find 'Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`)'
            cand transform 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)'
            cand patch 'Replace, delete, insert beside, or rename a named symbol (function, method, class…)'
            cand write 'Create or replace a file only when it is valid: tree-sitter syntax, then optionally the language''s checker (--check) and a language server (--lsp)'
            cand show 'Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of every signature with bodies elided'
            cand apply 'Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing change (add, delete, move, edit, patch symbols)'
            cand history 'The journal of mutations, newest first: ids, commands, files with before/after checksums, undone or recovered after a crash; `--prune` empties it'
            cand undo 'Put every file of a journaled operation back as it was before (default: the newest operation not yet undone), all or nothing, refused when a file changed since'
            cand generate 'Write shell completions and man pages (for packagers and this repository)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llm;search'= {
            cand -e 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`'
            cand --regexp 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`'
            cand -A 'Lines of context after each match'
            cand --after-context 'Lines of context after each match'
            cand -B 'Lines of context before each match'
            cand --before-context 'Lines of context before each match'
            cand -C 'Lines of context before and after each match'
            cand --context 'Lines of context before and after each match'
            cand -g 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand --glob 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand -t 'Only search files of this type (repeatable): rust, py, and ripgrep''s type table'
            cand --type 'Only search files of this type (repeatable): rust, py, and ripgrep''s type table'
            cand -T 'Skip files of this type (repeatable)'
            cand --type-not 'Skip files of this type (repeatable)'
            cand -m 'At most NUM matches per file'
            cand --max-count 'At most NUM matches per file'
            cand --max-results 'At most NUM matches in the whole run; the rest are still counted (status `partial`)'
            cand --max-filesize 'Skip files larger than this (bytes, or with a K, M or G suffix)'
            cand -r 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)'
            cand --replace 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)'
            cand -M 'In human output, do not print lines longer than NUM bytes (a summary instead)'
            cand --max-columns 'In human output, do not print lines longer than NUM bytes (a summary instead)'
            cand -j 'Number of threads (0 = one per core)'
            cand --threads 'Number of threads (0 = one per core)'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand -F 'Treat the pattern as a literal string, not a regex'
            cand --fixed-strings 'Treat the pattern as a literal string, not a regex'
            cand -i 'Case-insensitive search'
            cand --ignore-case 'Case-insensitive search'
            cand -S 'Case-insensitive unless the pattern has an uppercase letter'
            cand --smart-case 'Case-insensitive unless the pattern has an uppercase letter'
            cand -w 'Only match whole words'
            cand --word-regexp 'Only match whole words'
            cand -x 'Only match whole lines'
            cand --line-regexp 'Only match whole lines'
            cand -U 'Let matches span lines (`\n` can be matched; spans cover every line)'
            cand --multiline 'Let matches span lines (`\n` can be matched; spans cover every line)'
            cand --multiline-dotall 'With -U, make `.` match newlines too'
            cand --type-list 'List the known file types and their globs, then exit'
            cand --hidden 'Search hidden files and directories'
            cand --no-ignore 'Do not respect .gitignore, .ignore and similar files'
            cand -L 'Follow symbolic links'
            cand --follow 'Follow symbolic links'
            cand -l 'Only list the files with at least one match'
            cand --files-with-matches 'Only list the files with at least one match'
            cand -c 'Only show the number of matching lines per file'
            cand --count 'Only show the number of matching lines per file'
            cand --count-matches 'Only show the number of matches per file'
            cand --heading 'Group matches under a file heading (default on a terminal)'
            cand --no-heading 'Print the path on every line (default when piped)'
            cand -n 'Accepted for ripgrep compatibility: line and column numbers are always shown'
            cand --line-number 'Accepted for ripgrep compatibility: line and column numbers are always shown'
            cand --column 'Accepted for ripgrep compatibility: columns are always shown'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;ast'= {
            cand --query-file 'Read the query from a file'
            cand -l 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh). Also the language of a named file whose extension is not registered'
            cand --lang 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh). Also the language of a named file whose extension is not registered'
            cand --tree 'Print the syntax tree of FILE (named nodes with field names and spans) instead of querying'
            cand --at 'With --tree: show the path from the root to the smallest named node at LINE:COL (1-indexed line, 0-indexed byte column) and that node''s subtree'
            cand -g 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand --glob 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand --max-filesize 'Skip files larger than this (bytes, or with a K, M or G suffix)'
            cand --max-results 'At most NUM matches in the whole run; the rest are still counted (status `partial`)'
            cand -j 'Number of threads (0 = one per core)'
            cand --threads 'Number of threads (0 = one per core)'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --no-prefilter 'Parse every file of the queried languages whole, even when the query needs words a file (or a region of it) lacks: for nodes that error recovery builds in broken code around a missing keyword. Slower; the results are otherwise the same'
            cand --hidden 'Search hidden files and directories'
            cand --no-ignore 'Do not respect .gitignore, .ignore and similar files'
            cand -L 'Follow symbolic links'
            cand --follow 'Follow symbolic links'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;find'= {
            cand -k 'Only symbols of this kind (repeatable): function, method, struct, enum, variant, trait, impl, type, const, static, module, macro, field, union, class, constant'
            cand --kind 'Only symbols of this kind (repeatable): function, method, struct, enum, variant, trait, impl, type, const, static, module, macro, field, union, class, constant'
            cand --parent 'Only symbols whose enclosing symbol has this name or qualified name (a method''s impl type or class)'
            cand -l 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh)'
            cand --lang 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh)'
            cand -g 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand --glob 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g ''*.rs'' -g ''!tests/**''`'
            cand --max-filesize 'Skip files larger than this (bytes, or with a K, M or G suffix)'
            cand --max-results 'At most NUM matches in the whole run; the rest are still counted (status `partial`)'
            cand -j 'Number of threads (0 = one per core)'
            cand --threads 'Number of threads (0 = one per core)'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --outline 'Every symbol of the files, nested, in file order (no NAME)'
            cand --refs 'Occurrences of NAME as an identifier (calls, paths like util::inc, obj.inc, imports); never inside comments or strings. Definitions are flagged is_definition'
            cand --regex 'NAME is a regular expression matched against names and qualified names'
            cand --prefix 'NAME is a prefix of the name or qualified name'
            cand --hidden 'Search hidden files and directories'
            cand --no-ignore 'Do not respect .gitignore, .ignore and similar files'
            cand -L 'Follow symbolic links'
            cand --follow 'Follow symbolic links'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;transform'= {
            cand --old 'Exact text to replace (must occur exactly once unless --all)'
            cand --old-file 'Read the text to replace from a file'
            cand --new 'Text that replaces --old (`''''` deletes it)'
            cand --new-file 'Read the replacement text from a file'
            cand --edits 'Read the edit request (or piped query output) from this file instead of stdin (`-` = stdin)'
            cand --replace 'For piped `llm ast`/`llm find` output: replace each match''s span with TEXT (`$name` expands a capture, `$$` is `$`). For `llm search` output: used literally instead of -r'
            cand --expected-checksum 'Refuse (rejected) unless the file''s SHA-256 is this (a checksum from an earlier read)'
            cand --root 'Workspace root: nothing is written outside it'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --all 'Replace every occurrence of --old (otherwise several occurrences are rejected)'
            cand --dry-run 'Compute everything and show a unified diff; write nothing'
            cand --force 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)'
            cand --allow-outside-root 'Allow writing outside --root (and through symlinks that leave it)'
            cand --raw-line-endings 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;patch'= {
            cand --file 'The file holding the symbol'
            cand --symbol 'Name or qualified name (`parse`, `Parser::parse`, `Parser.parse`)'
            cand -k 'Only symbols of this kind (repeatable): function, method, struct, enum, class, impl…'
            cand --kind 'Only symbols of this kind (repeatable): function, method, struct, enum, class, impl…'
            cand --parent 'Only symbols whose parent (impl type, class, module) has this name'
            cand --line 'The symbol whose definition contains this line (innermost wins)'
            cand --with 'Read the new text from FILE'
            cand --with-text 'The new text'
            cand --rename 'Rename the definition and every reference `llm find --refs` finds (all files at once)'
            cand --in 'Where --rename looks for references (repeatable; default: --root)'
            cand --expected-checksum 'Refuse (status `rejected`) unless the file''s SHA-256 is this, e.g. the `checksum` of a prior `llm find` (piping that output on stdin sets it)'
            cand --root 'Workspace root: nothing is written outside it'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --body 'Replace only the body (the `{…}` block of a function, method, class…; the suite of a Python def/class or a Ruby def/class)'
            cand --delete 'Delete the definition, with what is attached to it and the blank line it leaves'
            cand --insert-before 'Insert the new text before the symbol, separated as its neighbours are'
            cand --insert-after 'Insert the new text after the symbol, separated as its neighbours are'
            cand --check 'Also run the language''s checker on the real project (`cargo check` for a file in a Cargo package, Python''s compile(), bash -n, ruby -wc, php -l, node --check, gofmt -e, javac, gcc/g++ -fsyntax-only, tsc --noEmit), before and after: errors the patch introduces reject it and the file is restored. A checker that is not installed rejects, never passes'
            cand --certain-only 'With --rename: rewrite only `certain` sites (not method calls on receivers of unknown type, which are `possible`)'
            cand --in-comments 'With --rename: also rewrite the name in comments, doc comments and doctests'
            cand --in-strings 'With --rename: also rewrite the name in string literals and docstrings'
            cand --dry-run 'Compute everything and show a unified diff; write nothing'
            cand --force 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)'
            cand --allow-outside-root 'Allow writing outside --root (and through symlinks that leave it)'
            cand --raw-line-endings 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;write'= {
            cand --content 'The new content as an argument'
            cand --content-file 'Read the new content from a file (`-` for stdin). Without --content or --content-file, the content is read from stdin'
            cand --expected-checksum 'With --overwrite: refuse unless the existing file''s SHA-256 is this (from a prior read)'
            cand --lang 'Language for validation (rust, python…); default: from the extension'
            cand --check-timeout 'Seconds --check may take (a cold `cargo check` can be slow)'
            cand --lsp 'Validate with a language server over stdio, e.g. `pylsp` or `pyright-langserver --stdio`. Default: the LLM_LSP_<LANG> environment variable (LLM_LSP_PYTHON, LLM_LSP_RUST)'
            cand --lsp-timeout 'Seconds the language server may take to start and publish diagnostics'
            cand --root 'Workspace root; nothing is written outside it'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand -p 'Create missing parent directories (inside the root)'
            cand --parents 'Create missing parent directories (inside the root)'
            cand --overwrite 'Replace the file if it exists (otherwise an existing file is refused)'
            cand --check 'Also run the language''s own checker: `cargo check` for a Rust file in a Cargo package, Python''s compile(), `bash -n`, `ruby -wc`, `php -l`, `node --check`, `gofmt -e`, `javac`, `gcc`/`g++ -fsyntax-only`, `tsc --noEmit` (with a tsconfig.json); C# has none'
            cand --no-lsp 'Do not use a language server, even if LLM_LSP_<LANG> is set'
            cand --allow-outside-root 'Allow writing outside --root'
            cand --dry-run 'Validate and report (with a diff), write nothing'
            cand --force 'Write even when validators report errors, or the content looks suspicious (they are reported as warnings), or the file to replace is read-only (its mode is kept)'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;show'= {
            cand -k 'Only symbols of this kind (repeatable): function, method, struct, class…'
            cand --kind 'Only symbols of this kind (repeatable): function, method, struct, class…'
            cand --parent 'Only symbols whose parent (impl type, class, module) has this name'
            cand --line 'The symbol whose definition contains this line (innermost wins)'
            cand -C 'Lines of context before and after a symbol or a range'
            cand --context 'Lines of context before and after a symbol or a range'
            cand --max-bytes 'Cut the text shown (all views together) at this many bytes, on a line boundary'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --skeleton 'Show every signature of the files under the paths, bodies elided'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;apply'= {
            cand --patch 'Read the patch from FILE instead of stdin (`-` = stdin)'
            cand --format-in 'The input''s format (default: detected)'
            cand --root 'Workspace root: nothing is written outside it'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --check 'Also run the language''s checker on the real project before and after (as `llm patch --check`); errors the input introduced reject it and the files are restored'
            cand --dry-run 'Compute everything and show a unified diff; write nothing'
            cand --force 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)'
            cand --allow-outside-root 'Allow writing outside --root (and through symlinks that leave it)'
            cand --raw-line-endings 'Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;history'= {
            cand --limit 'Show at most N operations (the newest)'
            cand --root 'Workspace root (its journal is at git''s top level above it, else here)'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --prune 'Empty the journal (every record and pre-image); nothing can be undone afterwards'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;undo'= {
            cand --root 'Workspace root (its journal is at git''s top level above it, else here)'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --dry-run 'Show the unified diff of the undo; change nothing'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;generate'= {
            cand --out-dir 'Directory under which `completions/` and `man/` are written'
            cand --format 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)'
            cand --color 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Shorthand for `--format json`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'llm;help'= {
            cand search 'Regex or literal text search over files and directories (ripgrep''s engine)'
            cand ast 'Tree-sitter query search over the files of 13 languages; `--tree` prints a file''s syntax tree'
            cand find 'Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`)'
            cand transform 'Apply byte-span or exact-text edits, guarded by the file''s SHA-256 (atomic, all or nothing)'
            cand patch 'Replace, delete, insert beside, or rename a named symbol (function, method, class…)'
            cand write 'Create or replace a file only when it is valid: tree-sitter syntax, then optionally the language''s checker (--check) and a language server (--lsp)'
            cand show 'Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of every signature with bodies elided'
            cand apply 'Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing change (add, delete, move, edit, patch symbols)'
            cand history 'The journal of mutations, newest first: ids, commands, files with before/after checksums, undone or recovered after a crash; `--prune` empties it'
            cand undo 'Put every file of a journaled operation back as it was before (default: the newest operation not yet undone), all or nothing, refused when a file changed since'
            cand generate 'Write shell completions and man pages (for packagers and this repository)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llm;help;search'= {
        }
        &'llm;help;ast'= {
        }
        &'llm;help;find'= {
        }
        &'llm;help;transform'= {
        }
        &'llm;help;patch'= {
        }
        &'llm;help;write'= {
        }
        &'llm;help;show'= {
        }
        &'llm;help;apply'= {
        }
        &'llm;help;history'= {
        }
        &'llm;help;undo'= {
        }
        &'llm;help;generate'= {
        }
        &'llm;help;help'= {
        }
    ]
    $completions[$command]
}
