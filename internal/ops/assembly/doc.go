// Package assembly is everything elemctl does with a project locally, with
// no network: finding the project and reading its descriptor
// (Проект.yaml / Project.yaml), the version and git metadata of a build,
// packing the reproducible build archive (.xasm / .xlib), and reading
// archives back for `inspect`, uploads and exports.
package assembly
