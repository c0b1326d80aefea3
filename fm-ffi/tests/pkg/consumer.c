/* consumer.c — a program built against an installed fm (CMake's fm::fm, or
 * `pkg-config --cflags --libs fm`, `fm-static`, or `fm --static` with cc -static): the
 * header's version is the library's, and a random game plays to its end through the
 * fast path. Prints "consumer: fm VERSION, N commands, RESULT". */
#include <fm.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *v = NULL;
    if (fm_version(&v) != FM_OK || strcmp(v, FM_VERSION_STRING) != 0) {
        printf("consumer: header %s, library %s\n", FM_VERSION_STRING, v ? v : "?");
        return 1;
    }
    fm_match *m = NULL;
    if (fm_match_new("system-demo", 3, &m) != FM_OK) return 1;
    size_t played = 0;
    if (fm_match_playout(m, 3, &played) != FM_OK) return 1;
    fm_result r = FM_RESULT_ONGOING;
    if (fm_match_result(m, &r) != FM_OK || r == FM_RESULT_ONGOING) return 1;
    printf("consumer: fm %s (%d.%d.%d), %zu commands, result %d\n", v, FM_VERSION_MAJOR,
           FM_VERSION_MINOR, FM_VERSION_PATCH, played, (int)r);
    fm_match_free(m);
    return 0;
}
