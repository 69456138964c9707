/* Parses SystemRDL files with the tree-sitter SystemRDL grammar (npm package tree-sitter-systemrdl, its generated
 * parser.c compiled in beside this file) and reports every syntax error with its line and column.
 * Usage: rdlcheck FILE...   exit 0 when every file parses without an error node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_systemrdl(void);

static int errors(TSNode n, const char *file) {
    int e = 0;
    if (!strcmp(ts_node_type(n), "ERROR") || ts_node_is_missing(n)) {
        TSPoint p = ts_node_start_point(n);
        fprintf(stderr, "%s:%u:%u: syntax error (%s)\n", file, p.row + 1, p.column + 1,
                ts_node_is_missing(n) ? "missing token" : "unexpected input");
        e++;
    }
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
        e += errors(ts_node_child(n, i), file);
    }
    return e;
}

int main(int argc, char **argv) {
    int failed = 0;
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_systemrdl());
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        rewind(f);
        char *src = malloc(len + 1);
        if (fread(src, 1, len, f) != (size_t) len) {
            perror(argv[i]);
            return 2;
        }
        fclose(f);
        TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t) len);
        TSNode root = ts_tree_root_node(tree);
        int e = errors(root, argv[i]);
        printf("%s: %u top-level declarations, %d syntax errors\n", argv[i], ts_node_named_child_count(root), e);
        failed |= e != 0;
        ts_tree_delete(tree);
        free(src);
    }
    ts_parser_delete(parser);
    return failed;
}
