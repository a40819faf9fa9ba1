package main

import "github.com/elemctl/elemctl/internal/versionflag"

// version is elemctl's version (see versionflag.Version).
var version = versionflag.Version
