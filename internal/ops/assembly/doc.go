// Package assembly is everything elemctl does with a project locally, with
// no network: finding the project and reading its descriptor
// (Проект.yaml / Project.yaml), the version and git metadata of a build,
// packing the reproducible build archive (.xasm / .xlib) – with the pack
// cache, which spares the next pack of a project compressing the files that
// did not change (packcache.go) – and reading archives back for `inspect`,
// uploads and exports.
package assembly
