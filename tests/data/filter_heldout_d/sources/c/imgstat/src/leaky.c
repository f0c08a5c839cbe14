#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node { char *key; struct node *next; } node;

static node *push(node *head, const char *key) {
    node *n = malloc(sizeof *n);
    n->key = strdup(key);
    n->next = head;
    return n;
}

static void free_list(node *head) {
    while (head) {
        node *next = head->next;
        free(head);
        head = next;
    }
}

int main(void) {
    node *list = NULL;
    char name[16];
    int *counts = malloc(8 * sizeof(int));
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "key-%02d", i);
        list = push(list, name);
    }
    counts[8] = 1;
    printf("first key %s, sum %d\n", list->key, counts[0] + counts[8]);
    free_list(list);
    return 0;
}
