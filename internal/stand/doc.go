// Package stand is an emulated 1C:Enterprise.Element stand: a real HTTP
// server that speaks the subset of Console API 2.0/2.1 elemctl uses, with
// the platform's quirks. It is the fixture of the project's tests and the
// default a newcomer runs (elemctl stand). It reads build archives itself
// and imports nothing of the elemctl client.
//
// Time is lazy: an operation stores when it started and when it is due
// (platform durations times Options.Speed), and every request first
// completes what fell due, in due order. No goroutine runs per
// application, a test at Speed 0.001 sees seconds pass in milliseconds, and
// a stand reloaded from its state file resumes operations where they were.
//
// Faults on purpose (faults.go, docs/stand.md): rules match requests by
// method and path pattern, fire on the n-th, every k-th or a seeded share
// of them, and answer a status with Retry-After, delay, reset the
// connection before the platform acts, lose the answer after it acted,
// truncate or trickle the body, fail an apply, set how long an
// application's applies take, silence the stand, restart the console or
// expire the tokens. A loopback control endpoint
// (/stand/faults, /stand/firings) changes them while the stand runs, and
// tells when each task ended (/stand/tasks), which the console does not;
// Options.Log takes one JSON line per request.
//
// The network (tls.go): with Options.TLS the stand serves HTTPS with a
// self-signed certificate that is its own CA (CACertPEM), kept in the
// state file; Options.Latency holds every request a round trip before the
// platform sees it, and over TLS the stand's part of the handshake too.
//
// Build archives live on disk in the stand's store (store.go), one file
// per content, beside the state file or in a temporary directory Close
// removes; uploads are spooled there outside the stand's lock, and an
// archive is read when a create, an apply or an export needs it.
//
// # Recorded facts (spec/platform-api.md) the stand reproduces
//
//   - Token: POST /console/sys/token with Basic auth and
//     grant_type=client_credentials answers {"id_token": <JWT-shaped>}. A
//     bearer token that is not JWT-shaped (not exactly two periods) is 400
//     {"error_code":"invalid_request","error_description":"JWT strings
//     must contain exactly 2 period characters. Found: N"} (N = its
//     periods), whatever the stale-token mode. A JWT-shaped token that is
//     refused (expired, or not issued by the stand) is 401, or in
//     SetStaleTokenAnswer(400) mode 400 {"error_code":"invalid_request",
//     "error_description":"JWT expired at ..." / "Unable to verify RSA
//     signature of the JWT"}.
//   - An unknown path or method under /console/api answers 401
//     {"error":{"code":16,"status":"UNAUTHENTICATED","message":"Handler of
//     HTTP request \"[M] /v2...\" in application \"console\" not found.",
//     "details":[]}}; SetAPI21(false) and SetExportEnabled(false) turn the
//     2.1 methods and the 2.0 project/export into such paths.
//   - While starting, every console request (the token included) answers
//     404 Application "console" not found, alternately as plain text and
//     as {"message": ...}; GET /console answers 302 when up, 404 meanwhile.
//   - Lists ignore queries and are complete; Options.Wrap wraps them as
//     {"items": [...]}. Deleted applications stay listed as "Deleted" (their
//     card is 404 {"message":"Application \"<id>\" not found"}); deleted
//     projects stay with "deleted": true; a group entry
//     "<presentation>(Группа)" with project-kind Group stands beside its
//     project.
//   - Lifecycle: create shows Initializing without uri for as long as its
//     CreateApplication task runs, the POST answer included (the console
//     reports Initializing whatever the server says), then Running with
//     uri <base>/applications/<publication-context> (a plain GET there
//     answers 401), or Error with "Неизвестная ошибка.
//     Обратитесь к администратору" and a failed CreateApplication task;
//     start/stop pass Starting/Stopping; delete passes Deleting with a
//     DeleteApplication task to Deleted; an application in Error stays in
//     Error through stop and start.
//   - Apply (project/update, image-id = a BUILD id, or project-id with an
//     optional assembly-version) shows Updating; success runs the new
//     build, failure silently rolls back to the previous build, Running,
//     with a failed UpdateApplication task (SetApplyLeavesError: status
//     Error instead). Export answers with the build uploaded for an update
//     in progress or failed.
//   - Compilation happens at create/apply. A line "#error <text>" of a .xbsl
//     entry fails it with "<Ошибка создания|обновления приложения>: <entry>
//     [<line>:<column>]: <Сервер> <text>", one line per marker. A
//     РежимСовместимости outside Options.CompatibilityModes fails it with
//     "Неизвестный режим совместимости <mode>" and derived lines. An
//     extension with ManifestVersion 1.0 fails the apply with
//     Unknown project kind: "Extension".
//   - Uploads: into a project by id the number is the highest ever given
//     in the descriptor's base plus one (deleted builds and no-project-id
//     uploads included); without project id the archive's version is kept,
//     a present version is 409 ALREADY_EXISTS "Версия сборки ... уже
//     присутствует в группе проекта", a deleted number is free again and
//     does not rewind the counter. The project is the live one carrying the
//     descriptor's Ид (upload space first, then any), else a new project
//     with its group; a fresh Ид with a vendor+name pair taken in the space
//     is 409 "Сборка с именем поставщика ... уже зарегистрирована в другом
//     проекте". Every upload renames the project and group to the build's
//     Представление. space-id is checked on the into-project route only
//     (malformed 400, unknown 404); modified=1 and a missing Представление
//     are bare 500s.
//   - Builds are addressed by version; a UUID is 404 "Assembly with version
//     <uuid> not found". Deleting a build an existing application was
//     created from (Deleting included) is 500.
//   - Housekeeping after every completed apply: builds of the
//     application's project with the base of the build it now runs, at most
//     10, keeping no-project-id uploads and the project's first build
//     (protected), release and default builds, builds live applications
//     use, and the highest number; extension projects are never touched;
//     create removes nothing.
//   - Extensions: a successful extension apply adds or updates its row in
//     v2.1 GET /applications/{id}/project "extension-projects" (id = the
//     descriptor's Ид, project-id = assembly-id = the extension project,
//     project-version = base, assembly-version = build); the card's source
//     is untouched; 2.0 answers without the rows. v2.1 extension export
//     matches the row id case-insensitively; anything else is 500
//     "Unable to export extension ... from application ..." with details
//     "Contact administrator for details".
//   - Users: control-panel users are always connected to every application
//     and presented by their login; change-token-access of an unconnected
//     user is 500 "Can't change user token access". Each application gets
//     its own empty list "Список пользователей приложения \"<name>\"".
//     GET|POST|DELETE /applications/{id}/userlists (no dash) read and
//     change the lists connected to an application, a plain set of ids.
//     Self-registration and account services take whole objects;
//     userPropertiesCalculationRules is accepted and never returned,
//     calculation-rules is 400; an incomplete POST /user-lists is 500
//     "Failed to parse json".
//   - Create from a deleted build is 400 "Can't create application"; delete
//     with unpublished edits (SetAppDrafts) is 400 FAILED_PRECONDITION.
//
// # Our choices where the platform's behaviour is not recorded
//
//   - Durations: Create 4 s, Apply 3 s, Start 2 s, Stop 2 s, Delete 2 s at
//     speed 1. The stand never shows Creating: the only status of a create
//     it reports is the console's Initializing. Dumps take the Stop
//     duration, technology group tasks the Apply duration. Tokens live one
//     real hour (not scaled).
//   - Busy: while any operation runs, apply, start, stop and delete answer
//     404 {"message":"Application \"<id>\" is busy"}; reads are never
//     refused. start of a Running or stop of a Stopped application is a
//     no-op 200. Start, stop and delete answer 200 with an empty body.
//   - Tasks exist for create, apply and delete only. A task shows status
//     InProgress until its operation ends, then Completed or Failed; dates
//     are UTC with milliseconds and Z (2026-09-02T10:00:00.000Z), so a
//     client comparing them with its own start moment is not fooled by
//     truncation.
//   - The card's source.type is "image" (as in the reference's fixture).
//   - Create from a project id (image-id) runs the project's latest build
//     (highest number); a project without builds gives an empty skeleton:
//     Running, empty project-version-id. Creating from a library or
//     extension build, or from a build whose descriptor lacks
//     ЯзыкРазработки, is refused 400 "Can't create application" and no
//     application is made. ЯзыкПоУмолчанию without ЯзыкиЛокализации fails
//     the create/apply with "... Contact administrator for details".
//     A publication context already used by a live application is 409
//     ALREADY_EXISTS.
//   - Apply of a build of another application project moves the
//     application to that project. Housekeeping runs after successful
//     applies only; builds are removed lowest number first.
//   - UNKNOWN applications refuse start, stop, apply and delete with 500.
//   - Debug disabled (SetDebugEnabled(false)) answers 400
//     {"code":"FAILED_PRECONDITION",...}; debug-address and
//     client-debug-address are wss://<stand host>/debug/server and
//     /debug/client; the debug token is new on every call.
//   - Branches: PUT with a stale version-stamp is 409
//     {"code":"ABORTED",...}; a missing stamp is 400; every write issues a
//     new opaque stamp; GET /branches honours project-id and name exactly.
//   - A PUT of an account service without userPropertiesCalculationRules
//     keeps the stored rules (a GET never returns them, so a
//     read-modify-write must not wipe them).
//   - Deleting a project is 500 while a live application uses it; it
//     deletes its builds and, when it was the last member, its group. A
//     refused 409 upload leaves no project behind.
//   - A request without a bearer token is 401 {"error":{"message":
//     "Unauthorized"}} in both stale-token modes; a refused JWT-shaped
//     token in the default mode is 401 "Invalid token" (not issued) or
//     "Token expired".
//   - The app↔list links GET|POST|DELETE /applications/{id}/userlists: GET
//     answers the array of connected list ids; POST and DELETE take
//     {"user-list-id": "<id>"} ("id" also accepted) and answer 204; no id
//     is 400, an unknown list (POST) or one not connected (DELETE) is 404.
//     There is no /userlists/{listId} sub-path (401 "Handler ... not
//     found").
//   - A build card has branch-name null (the branch-name query is accepted
//     and not shown) and commit-id null unless given by the commit-id query.
//   - The stand starts with one space, the control-panel user list and the
//     console user "admin" (GET /me). Only the four methods the reference
//     documents exist under 2.1 (GET project, extension export,
//     project/export, change-token-access).
//   - Limits (Options.Limits, DefaultLimits): an upload body past 256 MiB
//     (the platform's limit) is 413 {"message":"Request body is too large:
//     the limit is N bytes"}. The platform's limits of unpacking are not
//     recorded; the stand's are generous enough for any archive of that
//     size: all entries together past 1 GiB (declared sizes, checked
//     before anything is unpacked) or more than 100 000 entries, and of
//     the entries it reads into memory (the manifest, YAML and .xbsl
//     sources) one past 16 MiB or all past 64 MiB, is 400 invalid_request
//     "Invalid assembly: entry <name>: unpack limit: ... past the limit of
//     N bytes – a damaged archive or a zip bomb". Every entry of an upload
//     is unpacked through a limited reader, the others as a stream that is
//     only checked; a stored archive's read entries are read again only
//     while a create or an apply needs them, so a zip bomb costs the stand
//     at most the read limit.
//   - Names: display-name 1–128 characters without control characters;
//     publication-context (the display name when absent) 1–63 characters
//     of Latin letters, digits, '-' and '_' in segments separated by '/'
//     (it is a path of the application's address); the manifest's Vendor
//     and Name 1–64 letters (any alphabet), digits, '_' and '-', starting
//     with a letter or '_'; Представление at most 256 characters without
//     control characters. Each is 400 invalid_request naming the rule.
//   - A state file (Options.StateFile) keeps the client id and secret the
//     stand was made with, the address it last served on and the demo it
//     seeded, so a restarted stand answers an existing .env; the archives
//     stay in <state>.store beside it (a state file of layout 1, which held
//     them inline, moves them there when loaded).
//   - Not modelled: library builds leaving with their group's builds
//     during housekeeping, release flags beyond a library's Release line,
//     legacy UUID-only build addressing.
package stand
