// Package messages gathers the message tables of the packages under the
// faces, so the program and the tests of a face register them in one call.
// A face adds its own table; cmd/elemctl registers every table.
package messages

import (
	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/mcpinstall"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/ops/debugsession"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/schemaguard"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/platform/clientcache"
	"github.com/elemctl/elemctl/internal/plugin"
	"github.com/elemctl/elemctl/internal/plugin/adapter"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
	"github.com/elemctl/elemctl/internal/selfupdate"
	"github.com/elemctl/elemctl/internal/spelling"
)

// Operations are the tables of everything the faces run: the client, the
// operations, the catalog, the plugin host, self-update and MCP set-up.
func Operations() [][]i18n.Message {
	return [][]i18n.Message{
		platform.Messages, clientcache.Messages,
		assembly.Messages, buildlist.Messages, cards.Messages, debugsession.Messages, deploy.Messages, readback.Messages,
		registry.Messages, schemaguard.Messages, upload.Messages,
		command.Messages, catalog.Messages,
		plugin.Messages, manifest.Messages, adapter.Messages,
		selfupdate.Messages, mcpinstall.Messages, spelling.Messages,
	}
}
