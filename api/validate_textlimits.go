package api

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/crier/crier/app"
)

// Free text of a request body where the contract sets no maximum gets a documented one (issue 14:
// a 1 MB post title was accepted). The limits are the README's table: the contract's own maxLength
// always wins; these apply where it has none, so a new operation is bounded without an edit.
const (
	maxFileNameLength = 255              // fileName: what file systems and S3 keys allow
	maxTitleLength    = app.MaxPostTitle // title: a post's label in the dashboard (networks' titles have their own rules)
	maxEmailLength    = 254              // email: RFC 5321's longest address
	maxURLLength      = 2_048            // …Url, url, format uri: what browsers and networks accept
	maxTextLength     = 100_000          // any other string: above every network's text limit (Facebook's 63,206)
)

// msgLongFileName is the issue of a multipart file part whose file name is beyond maxFileNameLength.
var msgLongFileName = fmt.Sprintf("File name must contain at most %d character(s)", maxFileNameLength)

// textLimitFor is the maximum of a string property without one in the contract.
func textLimitFor(name string, s *openapi3.Schema) uint64 {
	lower := strings.ToLower(name)
	switch {
	case lower == "filename":
		return maxFileNameLength
	case lower == "title":
		return maxTitleLength
	case lower == "email":
		return maxEmailLength
	case s.Format == "uri" || lower == "url" || strings.HasSuffix(lower, "url"):
		return maxURLLength
	}
	return maxTextLength
}

// applyTextLimits gives every string of every request body without a maxLength its limit.
func applyTextLimits(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for _, mt := range op.RequestBody.Value.Content {
				if mt.Schema != nil {
					limitStrings("", mt.Schema.Value, seen)
				}
			}
		}
	}
}

func limitStrings(name string, s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Type.Is("string") && s.MaxLength == nil && len(s.Enum) == 0 && s.Format != "binary" && s.Format != "uuid" && s.Format != "date-time" {
		limit := textLimitFor(name, s)
		s.MaxLength = &limit
	}
	for prop, p := range s.Properties {
		if p != nil {
			limitStrings(prop, p.Value, seen)
		}
	}
	if s.Items != nil {
		limitStrings(name, s.Items.Value, seen)
	}
	if s.AdditionalProperties.Schema != nil {
		limitStrings(name, s.AdditionalProperties.Schema.Value, seen)
	}
	for _, group := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, ref := range group {
			if ref != nil {
				limitStrings(name, ref.Value, seen)
			}
		}
	}
}
