package stand

import (
	"strconv"
	"unicode/utf8"
)

// appendJSON writes the card as encoding/json would (no HTML escaping):
// the application list is the stand's largest answer, thousands of cards
// on the benchmarks' stands, and reflection was most of its cost. A test
// holds it to encoding/json's output.
func (c *appJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, c.ID)
	b = appendField(b, "name", c.Name)
	b = appendField(b, "display-name", c.DisplayName)
	b = appendField(b, "publication-context", c.PublicationContext)
	b = appendField(b, "status", c.Status)
	if c.URI != "" {
		b = appendField(b, "uri", c.URI)
	}
	if c.Error != "" {
		b = appendField(b, "error", c.Error)
	}
	b = appendField(b, "technology-version", c.TechnologyVersion)
	b = append(b, `,"development-mode":`...)
	b = strconv.AppendBool(b, c.DevelopmentMode)
	b = appendField(b, "space-id", c.SpaceID)
	b = appendField(b, "date-created", c.DateCreated)
	b = appendField(b, "date-updated", c.DateUpdated)
	b = append(b, `,"source":{"type":`...)
	b = appendJSONString(b, c.Source.Type)
	b = appendField(b, "image-id", c.Source.ImageID)
	b = appendField(b, "project-version-id", c.Source.ProjectVersionID)
	b = appendField(b, "project-version", c.Source.ProjectVersion)
	b = append(b, `},"project":{"id":`...)
	b = appendJSONString(b, c.Project.ID)
	if c.Project.Name != "" {
		b = appendField(b, "name", c.Project.Name)
	}
	b = append(b, '}')
	b = appendField(b, "default-user-list", c.DefaultUserList)
	b = append(b, `,"user-lists":`...)
	if c.UserLists == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, l := range c.UserLists {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, l)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendField(b []byte, key, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendJSONString(b, value)
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping off.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
