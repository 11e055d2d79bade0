# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_llm_global_optspecs
    string join \n format= json color= h/help V/version
end

function __fish_llm_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_llm_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_llm_using_subcommand
    set -l cmd (__fish_llm_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c llm -n "__fish_llm_needs_command" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_needs_command" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_needs_command" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llm -n "__fish_llm_needs_command" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_needs_command" -f -a "search" -d 'Regex or literal text search over files and directories (ripgrep\'s engine)'
complete -c llm -n "__fish_llm_needs_command" -f -a "ast" -d 'Tree-sitter query search over the files of 13 languages; `--tree` prints a file\'s syntax tree'
complete -c llm -n "__fish_llm_needs_command" -f -a "find" -d 'Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`)'
complete -c llm -n "__fish_llm_needs_command" -f -a "transform" -d 'Apply byte-span or exact-text edits, guarded by the file\'s SHA-256 (atomic, all or nothing)'
complete -c llm -n "__fish_llm_needs_command" -f -a "patch" -d 'Replace, delete, insert beside, or rename a named symbol (function, method, class…)'
complete -c llm -n "__fish_llm_needs_command" -f -a "write" -d 'Create or replace a file only when it is valid: tree-sitter syntax, then optionally the language\'s checker (--check) and a language server (--lsp)'
complete -c llm -n "__fish_llm_needs_command" -f -a "show" -d 'Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of every signature with bodies elided'
complete -c llm -n "__fish_llm_needs_command" -f -a "apply" -d 'Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing change (add, delete, move, edit, patch symbols)'
complete -c llm -n "__fish_llm_needs_command" -f -a "history" -d 'The journal of mutations, newest first: ids, commands, files with before/after checksums, undone or recovered after a crash; `--prune` empties it'
complete -c llm -n "__fish_llm_needs_command" -f -a "undo" -d 'Put every file of a journaled operation back as it was before (default: the newest operation not yet undone), all or nothing, refused when a file changed since'
complete -c llm -n "__fish_llm_needs_command" -f -a "generate" -d 'Write shell completions and man pages (for packagers and this repository)'
complete -c llm -n "__fish_llm_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c llm -n "__fish_llm_using_subcommand search" -s e -l regexp -d 'A pattern to search for (repeatable; a line matching any of them matches). Use it for patterns that start with `-`' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s f -l file -d 'Read patterns from FILE, one per line (repeatable; `-` is stdin). An empty file matches nothing' -r -F
complete -c llm -n "__fish_llm_using_subcommand search" -l engine -d 'The regex engine: `default` (Rust\'s regex), `pcre2` (as -P), or `auto` (Rust\'s, and PCRE2 for a pattern it cannot compile: look-around, backreferences). The last of --engine, -P and --no-pcre2 wins' -r -f -a "default\t'Rust\'s regex'
pcre2\t'PCRE2 (as -P)'
auto\t'Rust\'s regex, and PCRE2 for a pattern it cannot compile'"
complete -c llm -n "__fish_llm_using_subcommand search" -l regex-size-limit -d 'The size limit of the compiled regex (bytes, or a K, M or G suffix), as ripgrep' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l dfa-size-limit -d 'The size limit of the regex\'s lazy DFA cache (bytes, or a K, M or G suffix), as ripgrep' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s A -l after-context -d 'Lines of context after each match' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s B -l before-context -d 'Lines of context before each match' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s C -l context -d 'Lines of context before and after each match' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s g -l glob -d 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g \'*.rs\' -g \'!tests/**\'`' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l iglob -d 'Like -g, but case-insensitive (repeatable)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s t -l type -d 'Only search files of this type (repeatable): rust, py, ripgrep\'s type table, or `all`' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s T -l type-not -d 'Skip files of this type (repeatable; `all` skips every typed file)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l type-add -d 'Add a type: `NAME:GLOB` (repeatable; also `NAME:include:OTHER,…`)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l type-clear -d 'Forget the globs of a type (repeatable), before --type-add adds to it' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-file -d 'Also read ignore rules from FILE (gitignore syntax; repeatable)' -r -F
complete -c llm -n "__fish_llm_using_subcommand search" -s d -l max-depth -l maxdepth -d 'Descend at most NUM directories below each path (0: only the paths themselves)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s m -l max-count -d 'At most NUM matches per file' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l max-results -d 'At most NUM matches in the whole run; the search stops there (status `partial`)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l max-filesize -d 'Skip files larger than this (bytes, or with a K, M or G suffix)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s r -l replace -d 'Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement` to each match (apply it with `llm transform`)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l sort -d 'Order files by path (the default), or by modified, accessed or created time' -r -f -a "path\t'By path (the default order)'
modified\t'By last modification time'
accessed\t'By last access time'
created\t'By creation time'
none\t'Path order, as the default'"
complete -c llm -n "__fish_llm_using_subcommand search" -l sortr -d 'Like --sort, in reverse (newest first for times)' -r -f -a "path\t'By path (the default order)'
modified\t'By last modification time'
accessed\t'By last access time'
created\t'By creation time'
none\t'Path order, as the default'"
complete -c llm -n "__fish_llm_using_subcommand search" -s M -l max-columns -d 'In human output, do not print lines longer than NUM bytes (a summary instead; 0: no limit)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l context-separator -d 'In human output, the line between groups of context lines that are not contiguous (default `--`; escapes such as `\\t` and `\\x7F` are understood, as ripgrep)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s j -l threads -d 'Number of threads (0 = one per core)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -s E -l encoding -d 'The encoding files are decoded from before they are searched: any WHATWG label (`latin1`, `shift_jis`, `utf-16le`…), `auto` (the default: a UTF-16 byte-order mark is decoded) or `none` (bytes as they are). JSON spans still address the bytes on disk; UTF-16 results are spelled `<PATH | UTF-16LE>` there (not mutation targets)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l pre -d 'Search what COMMAND PATH writes to standard output (the file is its standard input too) instead of each file, as rg. In JSON such results are spelled `<PATH | COMMAND>`: no mutation takes them. An empty COMMAND runs none, as rg. Of --pre and -z, the last wins (as rg 13)' -r -F
complete -c llm -n "__fish_llm_using_subcommand search" -l pre-glob -d 'Only files matching GLOB go through --pre (repeatable; `!` excludes)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l field-match-separator -d 'Human output: what follows the path, line number, column and byte offset on a matching line (default `:`; escapes such as `\\t` and `\\x7F` are understood, as rg)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l field-context-separator -d 'Human output: what follows the path, line number and byte offset on a context line (default `-`; escapes as in --field-match-separator)' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l path-separator -d 'Human output: the byte that separates the parts of printed paths instead of `/` (exactly one byte, escapes understood; empty: `/`). JSON paths keep `/`' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l colors -d 'Human output with colour on: change a colour, as rg: `{type}:{attribute}:{value}`, type path, line, column or match; attribute fg or bg (black, blue, green, red, cyan, magenta, yellow, white, 0-255, or r,g,b) or style (bold, nobold, intense, nointense, underline, nounderline); `{type}:none` clears the type\'s colours. Repeatable, later specs overriding earlier ones' -r
complete -c llm -n "__fish_llm_using_subcommand search" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand search" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand search" -s F -l fixed-strings -d 'Treat the pattern as a literal string, not a regex'
complete -c llm -n "__fish_llm_using_subcommand search" -s i -l ignore-case -d 'Case-insensitive search'
complete -c llm -n "__fish_llm_using_subcommand search" -s s -l case-sensitive -d 'Case-sensitive search (the default; overrides an earlier -i or -S)'
complete -c llm -n "__fish_llm_using_subcommand search" -s S -l smart-case -d 'Case-insensitive unless the pattern has an uppercase letter'
complete -c llm -n "__fish_llm_using_subcommand search" -s w -l word-regexp -d 'Only match whole words (`-x` given after it wins, as in rg)'
complete -c llm -n "__fish_llm_using_subcommand search" -s x -l line-regexp -d 'Only match whole lines (`-w` given after it wins, as in rg)'
complete -c llm -n "__fish_llm_using_subcommand search" -s v -l invert-match -d 'Report the lines that do not match (each a match spanning the whole line)'
complete -c llm -n "__fish_llm_using_subcommand search" -s o -l only-matching -d 'Human output: print each match\'s text alone on its line (JSON matches already span only the match)'
complete -c llm -n "__fish_llm_using_subcommand search" -s q -l quiet -d 'Print nothing; exit 0 at the first match, 1 when there is none, 2 on error'
complete -c llm -n "__fish_llm_using_subcommand search" -s U -l multiline -d 'Let matches span lines (`\\n` can be matched; spans cover every line)'
complete -c llm -n "__fish_llm_using_subcommand search" -l multiline-dotall -d 'With -U, make `.` match newlines too (without -U it changes nothing, as in ripgrep)'
complete -c llm -n "__fish_llm_using_subcommand search" -l crlf -d 'Accepted for ripgrep compatibility: `$` already matches before `\\r\\n`'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-config -d 'Accepted for ripgrep compatibility: llm reads no configuration file'
complete -c llm -n "__fish_llm_using_subcommand search" -l vimgrep -d 'Human output: every match on a line of its own, `path:line:col:text` (a line with two matches prints twice; with -o, the match\'s text), for editors\' quickfix lists'
complete -c llm -n "__fish_llm_using_subcommand search" -s P -l pcre2 -d 'PCRE2 syntax: look-around, backreferences (`(\\w+) \\1`), possessive quantifiers. Named groups are `(?<name>…)`; `-r` refers to them as `$name` or `${name}`'
complete -c llm -n "__fish_llm_using_subcommand search" -l auto-hybrid-regex -d 'ripgrep\'s older spelling of `--engine auto`'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-unicode -d 'ASCII-only `\\w`, `\\d`, `\\s`, `\\b` and case folding'
complete -c llm -n "__fish_llm_using_subcommand search" -s a -l text -d 'Search binary files as text: no NUL detection, and patterns may match NUL'
complete -c llm -n "__fish_llm_using_subcommand search" -l binary -d 'Search binary files found by walking in full, as files named on the command line are (a warning says their text fields are lossy)'
complete -c llm -n "__fish_llm_using_subcommand search" -l stop-on-nonmatch -d 'Stop searching a file at the first non-matching line after a matching one'
complete -c llm -n "__fish_llm_using_subcommand search" -l glob-case-insensitive -d 'Make every -g glob case-insensitive'
complete -c llm -n "__fish_llm_using_subcommand search" -l type-list -d 'List the known file types and their globs, then exit'
complete -c llm -n "__fish_llm_using_subcommand search" -l pcre2-version -d 'Print the version of PCRE2 that -P uses and whether its JIT is available, then exit'
complete -c llm -n "__fish_llm_using_subcommand search" -s . -l hidden -d 'Search hidden files and directories'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore -d 'Do not respect .gitignore, .ignore, .rgignore and similar files'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-vcs -d 'Do not respect .gitignore, .git/info/exclude and the global git excludes'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-dot -d 'Do not respect .ignore and .rgignore files'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-parent -d 'Do not respect ignore files in the parent directories of a path'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-global -d 'Do not respect the global git excludes file (core.excludesFile)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-exclude -d 'Do not respect .git/info/exclude'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-files -d 'Do not read the --ignore-file files'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-messages -d 'Do not warn of --ignore-file files that cannot be read'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-require-git -d 'Accepted for ripgrep compatibility: .gitignore files are honoured outside git repositories already'
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-file-case-insensitive -d 'Match the rules of ignore files case-insensitively'
complete -c llm -n "__fish_llm_using_subcommand search" -s u -l unrestricted -d 'Reduce the filters: -u searches ignored files, -uu hidden ones too, -uuu binary files too (as --binary)'
complete -c llm -n "__fish_llm_using_subcommand search" -s L -l follow -d 'Follow symbolic links'
complete -c llm -n "__fish_llm_using_subcommand search" -l one-file-system -d 'Do not cross into other file systems'
complete -c llm -n "__fish_llm_using_subcommand search" -s l -l files-with-matches -d 'Only list the files with at least one match. Of -l and --files-without-match the last given wins; -c and --count-matches win over both, as in ripgrep'
complete -c llm -n "__fish_llm_using_subcommand search" -l files-without-match -d 'Only list the files searched that have no match'
complete -c llm -n "__fish_llm_using_subcommand search" -l files -d 'List the files that would be searched (with checksums in JSON), without searching (-l, -c and the like then change nothing)'
complete -c llm -n "__fish_llm_using_subcommand search" -s c -l count -d 'Only show the number of matching lines per file (of -c and --count-matches the last given wins)'
complete -c llm -n "__fish_llm_using_subcommand search" -l count-matches -d 'Only show the number of matches per file'
complete -c llm -n "__fish_llm_using_subcommand search" -l include-zero -d 'With -c/--count-matches, also list the files searched that have no match (count 0)'
complete -c llm -n "__fish_llm_using_subcommand search" -l max-columns-preview -d 'With -M, print the first NUM characters of a long line and how many matches it leaves out, rather than only a summary (as ripgrep)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-context-separator -d 'In human output, nothing between groups of context lines'
complete -c llm -n "__fish_llm_using_subcommand search" -l heading -d 'Group matches under a file heading (default on a terminal)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-heading -d 'Print the path on every line (default when piped)'
complete -c llm -n "__fish_llm_using_subcommand search" -s p -l pretty -d 'Human output: headings and colour, as on a terminal. JSON: indented'
complete -c llm -n "__fish_llm_using_subcommand search" -s n -l line-number -d 'Accepted for ripgrep compatibility: line and column numbers are shown unless -N'
complete -c llm -n "__fish_llm_using_subcommand search" -s N -l no-line-number -d 'Human output: no line and column numbers (JSON spans keep them)'
complete -c llm -n "__fish_llm_using_subcommand search" -l column -d 'Accepted for ripgrep compatibility: columns are always shown'
complete -c llm -n "__fish_llm_using_subcommand search" -s H -l with-filename -d 'Human output: print the path on every line, even for one file (JSON always has it)'
complete -c llm -n "__fish_llm_using_subcommand search" -s I -l no-filename -d 'Human output: never print the path (JSON spans keep it)'
complete -c llm -n "__fish_llm_using_subcommand search" -s 0 -l null -d 'Human output: follow each path with a NUL byte instead of `:` or a newline'
complete -c llm -n "__fish_llm_using_subcommand search" -s b -l byte-offset -d 'Human output: print the byte offset of each line (of each match with -o) before it'
complete -c llm -n "__fish_llm_using_subcommand search" -l trim -d 'Human output: strip leading whitespace from printed lines (spans are unchanged)'
complete -c llm -n "__fish_llm_using_subcommand search" -l stats -d 'Human output: print counts and timing after the results (JSON has data.stats)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-messages -d 'Human output: do not print warnings and per-file errors on stderr (JSON keeps them)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-hidden
complete -c llm -n "__fish_llm_using_subcommand search" -l no-follow
complete -c llm -n "__fish_llm_using_subcommand search" -l no-text
complete -c llm -n "__fish_llm_using_subcommand search" -l no-binary
complete -c llm -n "__fish_llm_using_subcommand search" -l no-crlf
complete -c llm -n "__fish_llm_using_subcommand search" -l no-fixed-strings
complete -c llm -n "__fish_llm_using_subcommand search" -l no-glob-case-insensitive
complete -c llm -n "__fish_llm_using_subcommand search" -l no-ignore-file-case-insensitive
complete -c llm -n "__fish_llm_using_subcommand search" -l no-max-columns-preview
complete -c llm -n "__fish_llm_using_subcommand search" -l no-multiline
complete -c llm -n "__fish_llm_using_subcommand search" -l no-multiline-dotall
complete -c llm -n "__fish_llm_using_subcommand search" -l no-one-file-system
complete -c llm -n "__fish_llm_using_subcommand search" -l no-pcre2
complete -c llm -n "__fish_llm_using_subcommand search" -l no-stats
complete -c llm -n "__fish_llm_using_subcommand search" -l no-trim
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-vcs
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-dot
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-parent
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-global
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-exclude
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-files
complete -c llm -n "__fish_llm_using_subcommand search" -l ignore-messages
complete -c llm -n "__fish_llm_using_subcommand search" -l messages
complete -c llm -n "__fish_llm_using_subcommand search" -l require-git
complete -c llm -n "__fish_llm_using_subcommand search" -l unicode
complete -c llm -n "__fish_llm_using_subcommand search" -l no-column -d 'Show no column in human output (`--column` shows it again; JSON always has it)'
complete -c llm -n "__fish_llm_using_subcommand search" -l mmap -d 'Accepted for ripgrep\'s sake: llm chooses how it reads files'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-mmap -d 'Accepted for ripgrep\'s sake: llm chooses how it reads files'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-pcre2-unicode -d 'ripgrep\'s older spelling of --no-unicode (for -P)'
complete -c llm -n "__fish_llm_using_subcommand search" -l pcre2-unicode -d 'ripgrep\'s older spelling of --unicode'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-pre -d 'Run no --pre command (overrides an earlier --pre)'
complete -c llm -n "__fish_llm_using_subcommand search" -s z -l search-zip -d 'Search compressed files (.gz .tgz .bz2 .tbz2 .xz .txz .lz4 .lzma .br .zst .zstd .Z) through the program rg uses (gzip, bzip2, xz, lz4, brotli, zstd, uncompress). In JSON such results are spelled `<PATH | gzip -d -c>`: no mutation takes them. Of -z and --pre, the last wins (as rg 13)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-search-zip -d 'Do not decompress files (overrides an earlier -z)'
complete -c llm -n "__fish_llm_using_subcommand search" -l passthru -l passthrough -d 'Print every line of each file searched, those that do not match as context lines (of --passthru and -A/-B/-C the last given wins, as rg). JSON: each match\'s context_before holds the lines since the previous match (the first: since the file\'s start), the last match\'s context_after the rest of the file; no line is given twice'
complete -c llm -n "__fish_llm_using_subcommand search" -l null-data -d 'NUL ends each line (a record) instead of `\\n`, as rg: patterns may match `\\n`, and no binary detection (as -a). Human output numbers, prints and ends records (with NUL); JSON spans keep the file\'s real lines'
complete -c llm -n "__fish_llm_using_subcommand search" -l sort-files -d 'ripgrep\'s older spelling of `--sort path` (the last of --sort, --sortr and --sort-files wins)'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-sort-files -d 'Cancels --sort-files (files come in path order all the same)'
complete -c llm -n "__fish_llm_using_subcommand search" -l line-buffered -d 'Write each line of output as soon as it is printed (the default on a terminal), in every format'
complete -c llm -n "__fish_llm_using_subcommand search" -l block-buffered -d 'Write output in large blocks (the default when stdout is not a terminal), in every format'
complete -c llm -n "__fish_llm_using_subcommand search" -l no-line-buffered
complete -c llm -n "__fish_llm_using_subcommand search" -l no-block-buffered
complete -c llm -n "__fish_llm_using_subcommand search" -l debug -d 'Print what llm decides on stderr (files and directories skipped and by which rule, threads, the regex engine); stdout is unchanged'
complete -c llm -n "__fish_llm_using_subcommand search" -l trace -d 'As --debug, with more detail (the crates\' own trace messages too)'
complete -c llm -n "__fish_llm_using_subcommand search" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llm -n "__fish_llm_using_subcommand search" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand ast" -l query-file -d 'Read the query from a file' -r -F
complete -c llm -n "__fish_llm_using_subcommand ast" -s l -l lang -d 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh). Also the language of a named file whose extension is not registered' -r
complete -c llm -n "__fish_llm_using_subcommand ast" -l tree -d 'Print the syntax tree of FILE (named nodes with field names and spans) instead of querying' -r -F
complete -c llm -n "__fish_llm_using_subcommand ast" -l at -d 'With --tree: show the path from the root to the smallest named node at LINE:COL (1-indexed line, 0-indexed byte column) and that node\'s subtree' -r
complete -c llm -n "__fish_llm_using_subcommand ast" -s g -l glob -d 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g \'*.rs\' -g \'!tests/**\'`' -r
complete -c llm -n "__fish_llm_using_subcommand ast" -l max-filesize -d 'Skip files larger than this (bytes, or with a K, M or G suffix)' -r
complete -c llm -n "__fish_llm_using_subcommand ast" -l max-results -d 'At most NUM matches in the whole run; the rest are still counted (status `partial`)' -r
complete -c llm -n "__fish_llm_using_subcommand ast" -s j -l threads -d 'Number of threads (0 = one per core)' -r
complete -c llm -n "__fish_llm_using_subcommand ast" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand ast" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand ast" -l no-prefilter -d 'Parse every file of the queried languages whole, even when the query needs words a file (or a region of it) lacks: for nodes that error recovery builds in broken code around a missing keyword. Slower; the results are otherwise the same'
complete -c llm -n "__fish_llm_using_subcommand ast" -l hidden -d 'Search hidden files and directories'
complete -c llm -n "__fish_llm_using_subcommand ast" -l no-ignore -d 'Do not respect .gitignore, .ignore and similar files'
complete -c llm -n "__fish_llm_using_subcommand ast" -s L -l follow -d 'Follow symbolic links'
complete -c llm -n "__fish_llm_using_subcommand ast" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand ast" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand ast" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand find" -s k -l kind -d 'Only symbols of this kind (repeatable): function, method, struct, enum, variant, trait, impl, type, const, static, module, macro, field, union, class, constant' -r
complete -c llm -n "__fish_llm_using_subcommand find" -l parent -d 'Only symbols whose enclosing symbol has this name or qualified name (a method\'s impl type or class)' -r
complete -c llm -n "__fish_llm_using_subcommand find" -s l -l lang -d 'Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts), tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh)' -r
complete -c llm -n "__fish_llm_using_subcommand find" -s g -l glob -d 'Include or exclude files by glob (repeatable; `!` negates), e.g. `-g \'*.rs\' -g \'!tests/**\'`' -r
complete -c llm -n "__fish_llm_using_subcommand find" -l max-filesize -d 'Skip files larger than this (bytes, or with a K, M or G suffix)' -r
complete -c llm -n "__fish_llm_using_subcommand find" -l max-results -d 'At most NUM matches in the whole run; the rest are still counted (status `partial`)' -r
complete -c llm -n "__fish_llm_using_subcommand find" -s j -l threads -d 'Number of threads (0 = one per core)' -r
complete -c llm -n "__fish_llm_using_subcommand find" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand find" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand find" -l outline -d 'Every symbol of the files, nested, in file order (no NAME)'
complete -c llm -n "__fish_llm_using_subcommand find" -l refs -d 'Occurrences of NAME as an identifier (calls, paths like util::inc, obj.inc, imports); never inside comments or strings. Definitions are flagged is_definition'
complete -c llm -n "__fish_llm_using_subcommand find" -l regex -d 'NAME is a regular expression matched against names and qualified names'
complete -c llm -n "__fish_llm_using_subcommand find" -l prefix -d 'NAME is a prefix of the name or qualified name'
complete -c llm -n "__fish_llm_using_subcommand find" -l hidden -d 'Search hidden files and directories'
complete -c llm -n "__fish_llm_using_subcommand find" -l no-ignore -d 'Do not respect .gitignore, .ignore and similar files'
complete -c llm -n "__fish_llm_using_subcommand find" -s L -l follow -d 'Follow symbolic links'
complete -c llm -n "__fish_llm_using_subcommand find" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand find" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand find" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand transform" -l old -d 'Exact text to replace (must occur exactly once unless --all)' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l old-file -d 'Read the text to replace from a file' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l new -d 'Text that replaces --old (`\'\'` deletes it)' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l new-file -d 'Read the replacement text from a file' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l edits -d 'Read the edit request (or piped query output) from this file instead of stdin (`-` = stdin)' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l replace -d 'For piped `llm ast`/`llm find` output: replace each match\'s span with TEXT (`$name` expands a capture, `$$` is `$`). For `llm search` output: used literally instead of -r' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l expected-checksum -d 'Refuse (rejected) unless the file\'s SHA-256 is this (a checksum from an earlier read)' -r
complete -c llm -n "__fish_llm_using_subcommand transform" -l root -d 'Workspace root: nothing is written outside it' -r -F
complete -c llm -n "__fish_llm_using_subcommand transform" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand transform" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand transform" -l all -d 'Replace every occurrence of --old (otherwise several occurrences are rejected)'
complete -c llm -n "__fish_llm_using_subcommand transform" -l dry-run -d 'Compute everything and show a unified diff; write nothing'
complete -c llm -n "__fish_llm_using_subcommand transform" -l force -d 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)'
complete -c llm -n "__fish_llm_using_subcommand transform" -l allow-outside-root -d 'Allow writing outside --root (and through symlinks that leave it)'
complete -c llm -n "__fish_llm_using_subcommand transform" -l raw-line-endings -d 'Keep inserted text byte for byte: do not convert its `\\n` to `\\r\\n` in CRLF files'
complete -c llm -n "__fish_llm_using_subcommand transform" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand transform" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand transform" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand patch" -l file -d 'The file holding the symbol' -r -F
complete -c llm -n "__fish_llm_using_subcommand patch" -l symbol -d 'Name or qualified name (`parse`, `Parser::parse`, `Parser.parse`)' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -s k -l kind -d 'Only symbols of this kind (repeatable): function, method, struct, enum, class, impl…' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l parent -d 'Only symbols whose parent (impl type, class, module) has this name' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l line -d 'The symbol whose definition contains this line (innermost wins)' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l with -d 'Read the new text from FILE' -r -F
complete -c llm -n "__fish_llm_using_subcommand patch" -l with-text -d 'The new text' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l rename -d 'Rename the definition and every reference `llm find --refs` finds (all files at once)' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l check-timeout -d 'Seconds each --check run may take (a cold `cargo check` can be slow)' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l in -d 'Where --rename looks for references (repeatable; default: --root)' -r -F
complete -c llm -n "__fish_llm_using_subcommand patch" -l expected-checksum -d 'Refuse (status `rejected`) unless the file\'s SHA-256 is this, e.g. the `checksum` of a prior `llm find` (piping that output on stdin sets it)' -r
complete -c llm -n "__fish_llm_using_subcommand patch" -l root -d 'Workspace root: nothing is written outside it' -r -F
complete -c llm -n "__fish_llm_using_subcommand patch" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand patch" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand patch" -l body -d 'Replace only the body (the `{…}` block of a function, method, class…; the suite of a Python def/class or a Ruby def/class)'
complete -c llm -n "__fish_llm_using_subcommand patch" -l delete -d 'Delete the definition, with what is attached to it and the blank line it leaves'
complete -c llm -n "__fish_llm_using_subcommand patch" -l insert-before -d 'Insert the new text before the symbol, separated as its neighbours are'
complete -c llm -n "__fish_llm_using_subcommand patch" -l insert-after -d 'Insert the new text after the symbol, separated as its neighbours are'
complete -c llm -n "__fish_llm_using_subcommand patch" -l check -d 'Also run the language\'s checker on the real project (`cargo check` for a file in a Cargo package, Python\'s compile(), bash -n, ruby -wc, php -l, node --check, gofmt -e, javac, gcc/g++ -fsyntax-only, tsc --noEmit), before and after: errors the patch introduces reject it and the file is restored. A checker that is not installed rejects, never passes'
complete -c llm -n "__fish_llm_using_subcommand patch" -l certain-only -d 'With --rename: rewrite only `certain` sites (not method calls on receivers of unknown type, which are `possible`)'
complete -c llm -n "__fish_llm_using_subcommand patch" -l in-comments -d 'With --rename: also rewrite the name in comments, doc comments and doctests'
complete -c llm -n "__fish_llm_using_subcommand patch" -l in-strings -d 'With --rename: also rewrite the name in string literals and docstrings'
complete -c llm -n "__fish_llm_using_subcommand patch" -l dry-run -d 'Compute everything and show a unified diff; write nothing'
complete -c llm -n "__fish_llm_using_subcommand patch" -l force -d 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)'
complete -c llm -n "__fish_llm_using_subcommand patch" -l allow-outside-root -d 'Allow writing outside --root (and through symlinks that leave it)'
complete -c llm -n "__fish_llm_using_subcommand patch" -l raw-line-endings -d 'Keep inserted text byte for byte: do not convert its `\\n` to `\\r\\n` in CRLF files'
complete -c llm -n "__fish_llm_using_subcommand patch" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand patch" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand patch" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand write" -l content -d 'The new content as an argument' -r
complete -c llm -n "__fish_llm_using_subcommand write" -l content-file -d 'Read the new content from a file (`-` for stdin). Without --content or --content-file, the content is read from stdin' -r -F
complete -c llm -n "__fish_llm_using_subcommand write" -l expected-checksum -d 'With --overwrite: refuse unless the existing file\'s SHA-256 is this (from a prior read)' -r
complete -c llm -n "__fish_llm_using_subcommand write" -l lang -d 'Language for validation (rust, python…); default: from the extension' -r
complete -c llm -n "__fish_llm_using_subcommand write" -l check-timeout -d 'Seconds --check may take (a cold `cargo check` can be slow)' -r
complete -c llm -n "__fish_llm_using_subcommand write" -l lsp -d 'Validate with a language server over stdio, e.g. `pylsp` or `pyright-langserver --stdio`. Default: the LLM_LSP_<LANG> environment variable (LLM_LSP_PYTHON, LLM_LSP_RUST)' -r
complete -c llm -n "__fish_llm_using_subcommand write" -l lsp-timeout -d 'Seconds the language server may take to start and publish diagnostics' -r
complete -c llm -n "__fish_llm_using_subcommand write" -l root -d 'Workspace root; nothing is written outside it' -r -F
complete -c llm -n "__fish_llm_using_subcommand write" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand write" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand write" -s p -l parents -d 'Create missing parent directories (inside the root)'
complete -c llm -n "__fish_llm_using_subcommand write" -l overwrite -d 'Replace the file if it exists (otherwise an existing file is refused)'
complete -c llm -n "__fish_llm_using_subcommand write" -l check -d 'Also run the language\'s own checker: `cargo check` for a Rust file in a Cargo package, Python\'s compile(), `bash -n`, `ruby -wc`, `php -l`, `node --check`, `gofmt -e`, `javac`, `gcc`/`g++ -fsyntax-only`, `tsc --noEmit` (with a tsconfig.json); C# has none'
complete -c llm -n "__fish_llm_using_subcommand write" -l no-lsp -d 'Do not use a language server, even if LLM_LSP_<LANG> is set'
complete -c llm -n "__fish_llm_using_subcommand write" -l allow-outside-root -d 'Allow writing outside --root'
complete -c llm -n "__fish_llm_using_subcommand write" -l dry-run -d 'Validate and report (with a diff), write nothing'
complete -c llm -n "__fish_llm_using_subcommand write" -l force -d 'Write even when validators report errors, or the content looks suspicious (they are reported as warnings), or the file to replace is read-only (its mode is kept)'
complete -c llm -n "__fish_llm_using_subcommand write" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand write" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand write" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand show" -s k -l kind -d 'Only symbols of this kind (repeatable): function, method, struct, class…' -r
complete -c llm -n "__fish_llm_using_subcommand show" -l parent -d 'Only symbols whose parent (impl type, class, module) has this name' -r
complete -c llm -n "__fish_llm_using_subcommand show" -l line -d 'The symbol whose definition contains this line (innermost wins)' -r
complete -c llm -n "__fish_llm_using_subcommand show" -s C -l context -d 'Lines of context before and after a symbol or a range' -r
complete -c llm -n "__fish_llm_using_subcommand show" -l max-bytes -d 'Cut the text shown (all views together) at this many bytes, on a line boundary' -r
complete -c llm -n "__fish_llm_using_subcommand show" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand show" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand show" -l skeleton -d 'Show every signature of the files under the paths, bodies elided'
complete -c llm -n "__fish_llm_using_subcommand show" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand show" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand show" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand apply" -l patch -d 'Read the patch from FILE instead of stdin (`-` = stdin)' -r -F
complete -c llm -n "__fish_llm_using_subcommand apply" -l format-in -d 'The input\'s format (default: detected)' -r -f -a "unified\t''
codex\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand apply" -l check-timeout -d 'Seconds each --check run may take (a cold `cargo check` can be slow)' -r
complete -c llm -n "__fish_llm_using_subcommand apply" -l root -d 'Workspace root: nothing is written outside it' -r -F
complete -c llm -n "__fish_llm_using_subcommand apply" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand apply" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand apply" -l check -d 'Also run the language\'s checker on the real project before and after (as `llm patch --check`); errors the input introduced reject it and the files are restored'
complete -c llm -n "__fish_llm_using_subcommand apply" -l dry-run -d 'Compute everything and show a unified diff; write nothing'
complete -c llm -n "__fish_llm_using_subcommand apply" -l force -d 'Write even when the change introduces syntax (or Python indentation) errors, reported as warnings, or the target is read-only (its mode is kept)'
complete -c llm -n "__fish_llm_using_subcommand apply" -l allow-outside-root -d 'Allow writing outside --root (and through symlinks that leave it)'
complete -c llm -n "__fish_llm_using_subcommand apply" -l raw-line-endings -d 'Keep inserted text byte for byte: do not convert its `\\n` to `\\r\\n` in CRLF files'
complete -c llm -n "__fish_llm_using_subcommand apply" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand apply" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand apply" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand history" -l limit -d 'Show at most N operations (the newest)' -r
complete -c llm -n "__fish_llm_using_subcommand history" -l root -d 'Workspace root (its journal is at git\'s top level above it, else here)' -r -F
complete -c llm -n "__fish_llm_using_subcommand history" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand history" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand history" -l prune -d 'Empty the journal (every record and pre-image); nothing can be undone afterwards'
complete -c llm -n "__fish_llm_using_subcommand history" -l allow-outside-root -d 'Let recovery and undo act on an operation that ran with --allow-outside-root (its record names files outside the root); without it such a record is refused (LLM_E122)'
complete -c llm -n "__fish_llm_using_subcommand history" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand history" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand history" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand undo" -l root -d 'Workspace root (its journal is at git\'s top level above it, else here)' -r -F
complete -c llm -n "__fish_llm_using_subcommand undo" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand undo" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand undo" -l dry-run -d 'Show the unified diff of the undo; change nothing'
complete -c llm -n "__fish_llm_using_subcommand undo" -l allow-outside-root -d 'Let recovery and undo act on an operation that ran with --allow-outside-root (its record names files outside the root); without it such a record is refused (LLM_E122)'
complete -c llm -n "__fish_llm_using_subcommand undo" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand undo" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand undo" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand generate" -l out-dir -d 'Directory under which `completions/` and `man/` are written' -r -F
complete -c llm -n "__fish_llm_using_subcommand generate" -l format -d 'Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a summary line)' -r -f -a "human\t''
json\t''
jsonl\t''"
complete -c llm -n "__fish_llm_using_subcommand generate" -l color -d 'When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c llm -n "__fish_llm_using_subcommand generate" -l json -d 'Shorthand for `--format json`'
complete -c llm -n "__fish_llm_using_subcommand generate" -s h -l help -d 'Print help'
complete -c llm -n "__fish_llm_using_subcommand generate" -s V -l version -d 'Print version'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "search" -d 'Regex or literal text search over files and directories (ripgrep\'s engine)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "ast" -d 'Tree-sitter query search over the files of 13 languages; `--tree` prints a file\'s syntax tree'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "find" -d 'Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "transform" -d 'Apply byte-span or exact-text edits, guarded by the file\'s SHA-256 (atomic, all or nothing)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "patch" -d 'Replace, delete, insert beside, or rename a named symbol (function, method, class…)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "write" -d 'Create or replace a file only when it is valid: tree-sitter syntax, then optionally the language\'s checker (--check) and a language server (--lsp)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "show" -d 'Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of every signature with bodies elided'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "apply" -d 'Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing change (add, delete, move, edit, patch symbols)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "history" -d 'The journal of mutations, newest first: ids, commands, files with before/after checksums, undone or recovered after a crash; `--prune` empties it'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "undo" -d 'Put every file of a journaled operation back as it was before (default: the newest operation not yet undone), all or nothing, refused when a file changed since'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "generate" -d 'Write shell completions and man pages (for packagers and this repository)'
complete -c llm -n "__fish_llm_using_subcommand help; and not __fish_seen_subcommand_from search ast find transform patch write show apply history undo generate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
