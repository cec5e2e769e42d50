/*
 * content_blocker.h: the C ABI of swift-content-blocker (library libContentBlockerC.so, product
 * "ContentBlockerC": `swift build -c release --product ContentBlockerC`).
 *
 * Safari/WebKit content-blocker rule lists on Linux: load a compiled (binary) rule list from a file,
 * compile a JSON rule list with WebKit's validation and messages, and decide loads as
 * `content-blocker match` does — one request, or a batch of JSON Lines on several threads.
 *
 * HANDLES. `cb_rule_list` (one compiled list) and `cb_matcher` (lists installed together, in order)
 * are opaque and immutable once made. A matcher keeps its lists alive: a list may be freed as soon as
 * the matchers that need it are made.
 *
 * THREADS. Every function may be called from any thread, and concurrently on the same handles
 * (matching shares the lists' caches safely), except that a handle must not be freed while another
 * call is using it.
 *
 * OWNERSHIP. Every `char *` a function stores through an out-parameter (results, diagnostics, error
 * messages) is a NUL-terminated UTF-8 string allocated for the caller, who frees it with
 * cb_string_free(); NULL is stored when there is none. Out-parameters for messages may be NULL when
 * the caller does not want them. `const char *` results (cb_version, cb_rule_list_identifier) are owned
 * by the library (the identifier lives as long as its list).
 *
 * ERRORS. Functions that can fail return a cb_status; CB_OK is 0. On failure, `*error` (when `error`
 * is not NULL) receives a message in English, and the other out-parameters receive NULL / 0. There is
 * no global or thread-local error state.
 *
 * REQUESTS AND RESULTS are JSON, exactly as `content-blocker match --requests` reads and writes them
 * (`content-blocker help match`: REQUEST and RESULT; README "Requests"). A request is an object:
 *   {"url": "https://ads.example/a.js", "mainDocumentURL": "https://news.example/",
 *    "resourceType": "script", "frameURL": …, "loadContext": "top-frame"|"child-frame",
 *    "requestMethod": …, "loadType": "first-party"|"third-party", "requestHeaders": {…}, "id": any}
 * and its result an object:
 *   {"id": …, "url", "loadType", "blockedLoad", "blockedCookies", "madeHTTPS", "redirected",
 *    "notifications": [], "actions": [{"list", "type", "selector"?, "notification"?}],
 *    "lists": [{"list", "ignoredPreviousRules", "globalStylesheet" | "globalStylesheetBytes",
 *               "firedRules"?}],
 *    "cssDisplayNoneActions"? (CB_MATCH_BRIEF), "requestURL"?, "requestHeaders"?, "secondCheck"?,
 *    "warnings"?}
 * A request that cannot be decided gives {"id"?, "error": "line N: …", "warnings"?} in a batch.
 */
#ifndef CONTENT_BLOCKER_H
#define CONTENT_BLOCKER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
typedef int32_t cb_status;
#define CB_OK 0
#define CB_ERROR_ARGUMENT 1 /* a NULL pointer, an unknown flag, an invalid match pattern */
#define CB_ERROR_IO 2       /* a file could not be read or written (the message names it) */
#define CB_ERROR_BINARY 3   /* not a binary rule list, damaged, another format version, too large */
#define CB_ERROR_COMPILE 4  /* the JSON rule list is invalid (see cb_rule_list_compile's diagnostics) */
#define CB_ERROR_REQUEST 5  /* cb_match: the request is not a valid request object */

/* cb_rule_list_load flags. */
#define CB_LOAD_COPY 1u /* read the file into memory instead of mapping it */

/* cb_matcher_new flags. */
#define CB_MATCHER_REFERENCE_ENGINE 1u /* every rule in order (`--engine reference`); same answers */

/* cb_match / cb_match_many flags. */
#define CB_MATCH_BRIEF 1u       /* `--brief`: css-display-none selectors counted, stylesheets' sizes */
#define CB_MATCH_FIRED_RULES 2u /* `--fired-rules`: each list's matched rules (source indices) */

typedef struct cb_rule_list cb_rule_list;
typedef struct cb_matcher cb_matcher;

/* The library's version ("0.2.0"); static. */
const char *cb_version(void);
/* The binary rule list format version this library reads and writes. */
uint32_t cb_binary_format_version(void);
/* Frees a string the library gave the caller; NULL is ignored. */
void cb_string_free(char *string);

/*
 * Maps (or with CB_LOAD_COPY reads) and validates a binary rule list written by
 * `content-blocker compile` or cb_rule_list_save. `identifier` names the list in results; NULL gives
 * the file name without directory and extension, as the CLI does. A mapped file must only be replaced
 * by renaming a new file over it, never rewritten in place while the list is in use.
 * Errors: CB_ERROR_ARGUMENT, CB_ERROR_IO, CB_ERROR_BINARY.
 */
cb_status cb_rule_list_load(const char *path, const char *identifier, uint32_t flags, cb_rule_list **out,
                            char **error);

/*
 * Compiles the JSON rule list `json` (`length` bytes, UTF-8; need not be NUL-terminated) as WebKit
 * validates it. `identifier` NULL gives "list". When `diagnostics` is not NULL it receives, on success
 * and on failure, a JSON array of every diagnostic (errors, and warnings for rules WebKit drops), each
 *   {"severity": "error"|"warning", "error": WebKit's ContentExtensionError name or null,
 *    "message": WebKit's message, "key": "trigger.url-filter" or null, "detail": our reason or null,
 *    "rule": index in the JSON array or null, "byteOffset"?: for JSON syntax errors}
 * (the diagnostics of `content-blocker check --json`); the first error is the one WebKit reports.
 * Errors: CB_ERROR_ARGUMENT, CB_ERROR_COMPILE (`*error`: "the rule list is invalid (N errors): rule
 * 3: …"), CB_ERROR_BINARY (a limit of the binary format).
 */
cb_status cb_rule_list_compile(const char *json, size_t length, const char *identifier, cb_rule_list **out,
                               char **diagnostics, char **error);

/*
 * Writes the list's binary rule list to `path` (atomically: a new file renamed over it). A list loaded
 * from a file is written from that file, validated again. Errors: CB_ERROR_ARGUMENT, CB_ERROR_IO,
 * CB_ERROR_BINARY.
 */
cb_status cb_rule_list_save(const cb_rule_list *list, const char *path, char **error);

/* The list's identifier, owned by the list; NULL for a NULL list. */
const char *cb_rule_list_identifier(const cb_rule_list *list);
/* The number of rules of the JSON list it was compiled from. */
size_t cb_rule_list_rule_count(const cb_rule_list *list);
/* Releases the caller's reference; matchers made from it keep theirs. NULL is ignored. */
void cb_rule_list_free(cb_rule_list *list);

/*
 * Installs `count` lists, evaluated in this order (give them distinct identifiers). `patterns` are
 * `pattern_count` match patterns (such as "<all_urls>", or a scheme, host and path pattern as
 * `--active-actions` takes them) where every list's redirect and modify-headers actions apply (WebKit
 * applies them nowhere by default); NULL when `pattern_count` is 0. Errors: CB_ERROR_ARGUMENT.
 */
cb_status cb_matcher_new(const cb_rule_list *const *lists, size_t count, const char *const *patterns,
                         size_t pattern_count, uint32_t flags, cb_matcher **out, char **error);
/* Releases the matcher (and its references to its lists). NULL is ignored. */
void cb_matcher_free(cb_matcher *matcher);

/*
 * Decides one request: `request` is a JSON request object (`length` bytes). On CB_OK `*result`
 * receives the result object (no newline) and `*result_length` (when not NULL) its length in bytes.
 * A request that is not a valid request gives CB_ERROR_REQUEST and its message (without `line N: `).
 */
cb_status cb_match(const cb_matcher *matcher, const char *request, size_t length, uint32_t flags, char **result,
                   size_t *result_length, char **error);

/*
 * Decides a batch: `requests` is JSON Lines (`length` bytes; lines end with "\n", a "\r" before it is
 * dropped, a last line without "\n" counts). `*results` receives one result line per request line, in
 * order, each ending with "\n" (line N of the input is line N of the output; a bad or blank line gives
 * {"error": "line N: …"}, N counted from 1 in this buffer); `*results_length` its length. Lines are
 * matched in chunks on `jobs` threads (0: one per processor). Errors: CB_ERROR_ARGUMENT only.
 */
cb_status cb_match_many(const cb_matcher *matcher, const char *requests, size_t length, uint32_t flags, size_t jobs,
                        char **results, size_t *results_length, char **error);

#ifdef __cplusplus
}
#endif

#endif /* CONTENT_BLOCKER_H */
