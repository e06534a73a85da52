# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_devprojex_global_optspecs
    string join \n h/help V/version
end

function __fish_devprojex_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_devprojex_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_devprojex_using_subcommand
    set -l cmd (__fish_devprojex_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c devprojex -n "__fish_devprojex_needs_command" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_needs_command" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "tree" -d 'Print the effective file tree'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "analyze" -d 'File, character and token metrics, and the largest files'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "pack" -d 'Write a context pack (tree and file contents) that fits a token budget'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "search" -d 'Grep-style search over redacted file contents'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "get" -d 'One file by line range, secrets redacted: what the get_file tool shows an agent'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "symbols" -d 'Where a name is defined: functions, types, classes, constants, macros, modules (15 languages)'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "related" -d 'Files linked to one file by static imports: what it imports and what imports it'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "references" -d 'Every use of a defined name, each labelled resolved or name-only'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "outline" -d 'One file\'s definitions in order, with their start and end lines'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "relevant" -d 'The files that matter for a task, ranked, with reasons and line ranges (no model)'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "scan" -d 'List secrets found in the project (file, line, rule; never the secret). Exit 1 when any is found'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "mcp" -d 'Run the read-only MCP server over stdio'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "profile" -d 'Manage the per-project `local` profile and validate portable profiles'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "setup" -d 'Register the MCP server in your clients: Claude Code, Claude Desktop, Codex, Antigravity, Cursor, VS Code, Gemini CLI, Copilot CLI, Windsurf and Zed'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "doctor" -d 'Check the binary, the roots, Git, and every configured client entry'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "self-update" -d 'Update this standalone devprojex to the latest release (sha256-verified)'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "completion" -d 'Print shell completions'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "man" -d 'Print the man page (roff)'
complete -c devprojex -n "__fish_devprojex_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l max-file-bytes -d 'Skip files larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l max-depth -d 'Depth to show (top level = 1)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l format -d 'Default markdown' -r -f -a "markdown\t''
text\t''
json\t''
xml\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l paths -d 'Existing project-relative files or folders to narrow to; at most 256 entries' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l profile -d '\'standard\' (default), \'local\', or a portable profile JSON path inside the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l max-lines -d 'At most this many document lines (markdown/text end with a truncation trailer; json/xml fail)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand tree" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l paths -d 'Project-relative files or folders to narrow to' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l profile -d 'standard (default), local, or a profile JSON path in the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l detail -d 'full (default); compact drops comments and blank lines; signatures also function bodies' -r -f -a "full\t'No reduction: the text as it is'
compact\t'Ordinary comments and blank lines removed'
signatures\t'`Compact` plus function and method bodies collapsed to a placeholder'"
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l top-files -d 'Largest files to list (default 10)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l max-file-bytes -d 'Skip files larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l tokenizer -d 'Also count exact tokens of this encoding: o200k (GPT-4o and later) or cl100k (GPT-4)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l tree -d 'Tokens per folder in tree order, with each folder\'s share, down to DEPTH levels (all levels without DEPTH). Put it after the project path: `analyze . --tree 2`' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c devprojex -n "__fish_devprojex_using_subcommand analyze" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l paths -d 'Project-relative files or folders to narrow to' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l profile -d 'standard (default), local, or a profile JSON path in the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l detail -d 'full (default); compact drops comments and blank lines; signatures also function bodies' -r -f -a "full\t'No reduction: the text as it is'
compact\t'Ordinary comments and blank lines removed'
signatures\t'`Compact` plus function and method bodies collapsed to a placeholder'"
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l max-tokens -d 'Estimated content tokens (characters / 4 per file); default unlimited' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l max-file-bytes -d 'Skip files larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l view -d 'Default tree-content; diff needs git_scope' -r -f -a "tree-content\t''
content\t''
tree\t''
diff\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l format -d 'Default markdown' -r -f -a "markdown\t''
text\t''
json\t''
xml\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l tokenizer -d 'Make max_tokens exact in this encoding' -r -f -a "o200k\t''
cl100k\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l query -d 'A task: files by relevance, max_tokens filled best-first (full, signatures, names)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l rank -d 'relevance (default with query), centrality (repository map), paths (as listed)' -r -f -a "relevance\t'By relevance to `query` (the default when a query is given)'
centrality\t'The most central files first (whose definitions the most other files use): a repository map, without a query'
paths\t'In the order of `paths` (an extension: the spec\'s packs take files in path order): the files of the first entry, then of the second, and so on, each entry\'s in path order'"
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l detail-overrides -l detail-override -d '{glob: detail}' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l query-file -d 'Read the query from this file (UTF-8 text, at most 8,000 characters) instead of --query' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -s o -l output -d 'Write to this file (atomically replaced) instead of stdout. A file inside the project is never packed into itself' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -s q -l quiet -d 'Print nothing on stderr except errors (no budget report, summary or warnings)'
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c devprojex -n "__fish_devprojex_using_subcommand pack" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l max-file-bytes -d 'Skip files larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l context-lines -d 'Context lines around a match (default 2)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l ignore-case -d 'Case-insensitive matching (default true)' -r -f -a "true\t''
false\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l max-results -d 'Maximum matching lines or files (default 50)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l offset -d 'Matching lines (or files) to skip; a capped answer names the next offset' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l output -d 'files: paths; count: path:count, most first (default matches)' -r -f -a "matches\t''
files\t''
count\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l paths -d 'Existing project-relative files or folders to narrow to; at most 256 entries' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l profile -d '\'standard\' (default), \'local\', or a portable profile JSON path inside the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l timeout -d 'Stop after this many seconds with what was found (the default is no limit; the MCP server\'s limit is 2 seconds)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l format -d 'Output format: grep-style lines, or a JSON document of the groups and counts' -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l literal -d 'Treat pattern as a fixed string, not a regex'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -l case-sensitive -d 'Match case exactly (the same as --ignore-case=false)'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand search" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l start-line -d 'First line, 1-based (default 1)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l end-line -d 'Last line, inclusive' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l project -d 'The project folder (default: the Git checkout holding PATH, else the current directory)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l format -d 'Output format: the file\'s text, or a JSON document of the slice and its line numbers' -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l line-numbers -d 'Prefix lines with their number and a tab, as cat -n'
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand get" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l kind -d 'Only this kind; trait matches interface' -r -f -a "function\t'A free function (also a nested or local one)'
method\t'A function inside a class, struct, impl, trait, interface, object or extension'
type\t'A type alias or typedef, a Go named type that is not a struct or interface, a delegate'
class\t'A class, record, object (Scala, Kotlin), actor (Swift)'
struct\t'A struct or union'
enum\t'An enumeration'
trait\t'A trait (Rust, PHP, Scala)'
interface\t'An interface (Java, Kotlin, C#, Go, TypeScript), protocol (Swift), annotation type'
constant\t'A constant: Rust `const`/`static`, Go `const`, enumerators and enum constants, Java `static final` and C# `const` fields, Kotlin `const val`, PHP `const`, Ruby constants, and upper-case module-level `const`/assignments in JavaScript, TypeScript and Python'
macro\t'A C/C++ `#define` or a Rust `macro_rules!`'
module\t'A module or namespace: Rust `mod`, C++/C#/PHP `namespace`, Ruby `module`, TypeScript `namespace`/`module`'"
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l match -d 'Name comparison (default exact)' -r -f -a "exact\t''
prefix\t''
substring\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l max-results -d 'Maximum definitions (default 50)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l outline -d 'A file to outline instead of name' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l paths -d 'Existing project-relative files or folders to narrow to; at most 256 entries' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l profile -d '\'standard\' (default), \'local\', or a portable profile JSON path inside the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l max-file-bytes -d 'Remove files strictly larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l format -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l timeout -d 'Stop after this many seconds with what was found (default: run to completion)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l include-body -d 'Add bodies (up to 400 lines)'
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c devprojex -n "__fish_devprojex_using_subcommand symbols" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l direction -d 'imports, importers, or both (default)' -r -f -a "imports\t''
importers\t''
both\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l depth -d 'Import steps to follow (default 1)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l paths -d 'Project-relative files or folders to narrow to' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l profile -d 'standard (default), local, or a profile JSON path in the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l max-file-bytes -d 'Skip files larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l max-results -d 'Maximum related files (default 50)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l project -d 'The project folder (default: the Git checkout holding PATH, else the current directory)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l format -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l timeout -d 'Stop after this many seconds with what was found (default: run to completion)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand related" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l at -d 'path:line of the definition meant' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l kind -d 'Only this kind; trait matches interface' -r -f -a "function\t'A free function (also a nested or local one)'
method\t'A function inside a class, struct, impl, trait, interface, object or extension'
type\t'A type alias or typedef, a Go named type that is not a struct or interface, a delegate'
class\t'A class, record, object (Scala, Kotlin), actor (Swift)'
struct\t'A struct or union'
enum\t'An enumeration'
trait\t'A trait (Rust, PHP, Scala)'
interface\t'An interface (Java, Kotlin, C#, Go, TypeScript), protocol (Swift), annotation type'
constant\t'A constant: Rust `const`/`static`, Go `const`, enumerators and enum constants, Java `static final` and C# `const` fields, Kotlin `const val`, PHP `const`, Ruby constants, and upper-case module-level `const`/assignments in JavaScript, TypeScript and Python'
macro\t'A C/C++ `#define` or a Rust `macro_rules!`'
module\t'A module or namespace: Rust `mod`, C++/C#/PHP `namespace`, Ruby `module`, TypeScript `namespace`/`module`'"
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l include-imports -d 'Count imports (default true)' -r -f -a "true\t''
false\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l max-results -d 'References per page (default 100)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l offset -d 'References to skip' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l paths -d 'Project-relative files or folders to narrow to' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l profile -d '\'standard\' (default), \'local\', or a portable profile JSON path inside the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l max-file-bytes -d 'Remove files strictly larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l format -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l timeout -d 'Stop after this many seconds with what was found (default: run to completion)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c devprojex -n "__fish_devprojex_using_subcommand references" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -l project -d 'The project folder (default: the Git checkout holding FILE, else the current directory)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -l format -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand outline" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l branch -d 'Branch of a Git URL project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l query -d 'The task, in words or code' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l include-patterns -d 'Globs files must match (without \'/\': at any depth)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l exclude-patterns -d 'Globs of files to leave out' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l git-scope -d 'Only files changed: staged, changes, or diff:<ref>..<ref>' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l max-file-bytes -d 'Skip files larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l max-results -d 'Maximum ranked files (default 20)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l query-file -d 'Read the query from this file (UTF-8 text, at most 8,000 characters) instead of --query' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l paths -d 'Existing project-relative files or folders to narrow to; at most 256 entries' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l profile -d '\'standard\' (default), \'local\', or a portable profile JSON path inside the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l format -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l tracked-only -d 'Only files in the Git index'
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand relevant" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l paths -d 'Existing project-relative files or folders to narrow to; at most 256 entries' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l include-patterns -d 'Project-relative globs using \'/\' (a file must match one). A pattern without \'/\' matches names at any depth. Globs only narrow the selection' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l exclude-patterns -d 'Project-relative globs using \'/\' (matching files are removed). A pattern without \'/\' matches names at any depth. Globs only narrow the selection' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l profile -d '\'standard\' (default), \'local\', or a portable profile JSON path inside the project' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l git-scope -d 'Narrow to Git state: \'staged\', \'changes\', or \'diff:<ref>..<ref>\'. Content always comes from the working tree' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l max-file-bytes -d 'Remove files strictly larger than this many bytes' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l branch -d 'Branch to check out; valid only when the project is a Git URL' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l git-mode -d 'Git baseline: none (alias off), gitignore (default), tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l format -r -f -a "text\t''
json\t''"
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l tracked-only -d 'Select only files in the Git index (default false). Cannot weaken a tracked profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l hide-private-data -d 'Also hide private data (e-mails, IPs, user and host names) in the output'
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -l allow-remote -d 'Accept a Git URL as the project (cloned into the user cache; the only network use)'
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand scan" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -l root -d 'A project root to expose (repeatable)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -l git-mode -d 'Baseline Git mode when a tool names no profile: none (alias off), gitignore, tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -l tokenizer -d 'Exact tokens of this encoding in analyze (beside the estimate) and in pack_context\'s max_tokens (the complete document): o200k (GPT-4o and later) or cl100k (GPT-4)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -l hide-private-data -d 'Also redact private data (e-mails, IPs, user and host names) in everything returned'
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -l allow-remote -d 'Allow Git URLs as `project` (network is used only to clone)'
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "show" -d 'Print the project\'s local profile (or the built-in standard one when none is saved)'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "save" -d 'Save selection settings as the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "export" -d 'Write the local profile to a portable profile file'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "import" -d 'Store a portable profile file as the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "validate" -d 'Check a profile file against the schema'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "reset" -d 'Delete the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and not __fish_seen_subcommand_from show save export import validate reset help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l roots -d 'Folders to keep' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l extensions -d 'Extensions to keep (without the dot)' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l paths -d 'Files or folders to keep in addition to --roots' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l include-patterns -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-patterns -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l git-mode -d 'none (off), gitignore, tracked' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l detail -d 'full, compact, signatures' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-hidden-folders
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-hidden-files
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-dot-folders
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-dot-files
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-empty-folders
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-empty-files
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -l exclude-extensionless-files
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from save" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from export" -s o -l output -d 'Destination file (default: stdout)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from validate" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from reset" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from reset" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print the project\'s local profile (or the built-in standard one when none is saved)'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "save" -d 'Save selection settings as the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write the local profile to a portable profile file'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "import" -d 'Store a portable profile file as the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Check a profile file against the schema'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "reset" -d 'Delete the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l client -d 'Client to configure (repeatable; `all` for every detected client). Default: the detected clients' -r -f -a "all\t'Every detected client'
claude-code\t'Claude Code'
claude-desktop\t'Claude Desktop'
codex\t'OpenAI Codex'
antigravity\t'Google Antigravity'
cursor\t'Cursor'
vscode\t'Visual Studio Code'
vscode-insiders\t'Visual Studio Code Insiders'
gemini-cli\t'Gemini CLI'
copilot-cli\t'GitHub Copilot CLI'
windsurf\t'Windsurf'
zed\t'Zed'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l scope -d '`user`: the user\'s own config. `project`: files in the current repository (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, .gemini/settings.json)' -r -f -a "user\t'The user\'s own config, used in every project'
project\t'The current repository (a file that can be committed)'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l root -d 'Pin the server to this project folder (repeatable; `~` is expanded). Default: each client\'s own way to the project (see above); Claude Desktop, Antigravity and Windsurf need it. `/`, a drive root and the home folder are refused (see --allow-broad-root)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l name -d 'Name of the server entry' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l git-mode -d 'Bake `--git-mode MODE` into the server command line' -r -f -a "none\t'No git awareness'
gitignore\t'Honour `.gitignore`'
tracked\t'Only tracked files'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l command-path -d 'How to write the command: `auto` writes `devprojex` when the client would find this binary through its own PATH (desktop apps do not get the shell\'s), else its stable absolute path (Homebrew\'s `bin/devprojex`, never a versioned Cellar path)' -r -f -a "auto\t'`devprojex` when the client would find this binary through its own `PATH` (a desktop app\'s `PATH` is not the shell\'s), else this binary\'s stable absolute path'
absolute\t'Always the stable absolute path of the running binary'
name\t'Always the plain name `devprojex` (it must then be on the client\'s `PATH`)'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l allow-broad-root -d 'Accept a --root that is `/`, a drive root, the home folder or a folder above it: the server then reads every file there (SSH keys, browser profiles, other projects)'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l hide-private-data -d 'Bake `--hide-private-data` into the server command line'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l allow-remote -d 'Bake `--allow-remote` into the server command line'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l dry-run -d 'Show a unified diff of each file instead of writing'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l remove -d 'Remove the entry instead of adding it (Claude Code: user scope and every project\'s local scope)'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l force -d 'Replace (or remove) an entry of the same name that was changed by hand'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -l allow-dev-build -d 'Write entries that run this binary even though it is a development build in a Cargo `target/` folder (what `cargo run -- setup` runs)'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -s y -l yes -d 'Apply without asking'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -f -a "status" -d 'List every client, its config files, and the entry\'s state in each'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and not __fish_seen_subcommand_from status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l client -d 'Client to configure (repeatable; `all` for every detected client). Default: the detected clients' -r -f -a "all\t'Every detected client'
claude-code\t'Claude Code'
claude-desktop\t'Claude Desktop'
codex\t'OpenAI Codex'
antigravity\t'Google Antigravity'
cursor\t'Cursor'
vscode\t'Visual Studio Code'
vscode-insiders\t'Visual Studio Code Insiders'
gemini-cli\t'Gemini CLI'
copilot-cli\t'GitHub Copilot CLI'
windsurf\t'Windsurf'
zed\t'Zed'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l scope -d '`user`: the user\'s own config. `project`: files in the current repository (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, .gemini/settings.json)' -r -f -a "user\t'The user\'s own config, used in every project'
project\t'The current repository (a file that can be committed)'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l root -d 'Pin the server to this project folder (repeatable; `~` is expanded). Default: each client\'s own way to the project (see above); Claude Desktop, Antigravity and Windsurf need it. `/`, a drive root and the home folder are refused (see --allow-broad-root)' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l name -d 'Name of the server entry' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l git-mode -d 'Bake `--git-mode MODE` into the server command line' -r -f -a "none\t'No git awareness'
gitignore\t'Honour `.gitignore`'
tracked\t'Only tracked files'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l command-path -d 'How to write the command: `auto` writes `devprojex` when the client would find this binary through its own PATH (desktop apps do not get the shell\'s), else its stable absolute path (Homebrew\'s `bin/devprojex`, never a versioned Cellar path)' -r -f -a "auto\t'`devprojex` when the client would find this binary through its own `PATH` (a desktop app\'s `PATH` is not the shell\'s), else this binary\'s stable absolute path'
absolute\t'Always the stable absolute path of the running binary'
name\t'Always the plain name `devprojex` (it must then be on the client\'s `PATH`)'"
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l allow-broad-root -d 'Accept a --root that is `/`, a drive root, the home folder or a folder above it: the server then reads every file there (SSH keys, browser profiles, other projects)'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l hide-private-data -d 'Bake `--hide-private-data` into the server command line'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -l allow-remote -d 'Bake `--allow-remote` into the server command line'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from help" -f -a "status" -d 'List every client, its config files, and the entry\'s state in each'
complete -c devprojex -n "__fish_devprojex_using_subcommand setup; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c devprojex -n "__fish_devprojex_using_subcommand doctor" -l root -d 'Project folder to check (repeatable). Default: the current directory' -r -F
complete -c devprojex -n "__fish_devprojex_using_subcommand doctor" -l name -d 'Name of the server entry to look for' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand self-update" -l version -d 'Install this release (for example 0.4.1 or v0.4.1) instead of the latest; may downgrade' -r
complete -c devprojex -n "__fish_devprojex_using_subcommand self-update" -l check -d 'Only check whether a newer release exists; change nothing'
complete -c devprojex -n "__fish_devprojex_using_subcommand self-update" -s y -l yes -d 'Update without asking for confirmation (required when stdin is not a terminal)'
complete -c devprojex -n "__fish_devprojex_using_subcommand self-update" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand completion" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand completion" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand man" -s h -l help -d 'Print help'
complete -c devprojex -n "__fish_devprojex_using_subcommand man" -s V -l version -d 'Print version'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "tree" -d 'Print the effective file tree'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "analyze" -d 'File, character and token metrics, and the largest files'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "pack" -d 'Write a context pack (tree and file contents) that fits a token budget'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "search" -d 'Grep-style search over redacted file contents'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "get" -d 'One file by line range, secrets redacted: what the get_file tool shows an agent'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "symbols" -d 'Where a name is defined: functions, types, classes, constants, macros, modules (15 languages)'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "related" -d 'Files linked to one file by static imports: what it imports and what imports it'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "references" -d 'Every use of a defined name, each labelled resolved or name-only'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "outline" -d 'One file\'s definitions in order, with their start and end lines'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "relevant" -d 'The files that matter for a task, ranked, with reasons and line ranges (no model)'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "scan" -d 'List secrets found in the project (file, line, rule; never the secret). Exit 1 when any is found'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "mcp" -d 'Run the read-only MCP server over stdio'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "profile" -d 'Manage the per-project `local` profile and validate portable profiles'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "setup" -d 'Register the MCP server in your clients: Claude Code, Claude Desktop, Codex, Antigravity, Cursor, VS Code, Gemini CLI, Copilot CLI, Windsurf and Zed'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "doctor" -d 'Check the binary, the roots, Git, and every configured client entry'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "self-update" -d 'Update this standalone devprojex to the latest release (sha256-verified)'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "completion" -d 'Print shell completions'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "man" -d 'Print the man page (roff)'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and not __fish_seen_subcommand_from tree analyze pack search get symbols related references outline relevant scan mcp profile setup doctor self-update completion man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "show" -d 'Print the project\'s local profile (or the built-in standard one when none is saved)'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "save" -d 'Save selection settings as the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "export" -d 'Write the local profile to a portable profile file'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "import" -d 'Store a portable profile file as the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "validate" -d 'Check a profile file against the schema'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "reset" -d 'Delete the project\'s local profile'
complete -c devprojex -n "__fish_devprojex_using_subcommand help; and __fish_seen_subcommand_from setup" -f -a "status" -d 'List every client, its config files, and the entry\'s state in each'
