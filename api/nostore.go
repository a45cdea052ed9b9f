package api

import "github.com/getkin/kin-openapi/openapi3"

// secretFields are the contract's property names that hold a credential in a response: an API
// key's "key" (ApiKeyWithSecret) and a webhook's signing "secret".
var secretFields = map[string]bool{"key": true, "secret": true}

// carriesSecret reports whether a success response of op may hold a credential, read from the
// contract so a new operation that answers one gets Cache-Control: no-store without an edit here.
func carriesSecret(op *openapi3.Operation) bool {
	if op.Responses == nil {
		return false
	}
	seen := map[*openapi3.Schema]bool{}
	for code, r := range op.Responses.Map() {
		if len(code) == 0 || code[0] != '2' || r.Value == nil {
			continue
		}
		for _, mt := range r.Value.Content {
			if mt.Schema != nil && schemaHasSecret(mt.Schema.Value, seen) {
				return true
			}
		}
	}
	return false
}

func schemaHasSecret(s *openapi3.Schema, seen map[*openapi3.Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	for name, p := range s.Properties {
		if secretFields[name] || (p != nil && schemaHasSecret(p.Value, seen)) {
			return true
		}
	}
	if s.Items != nil && schemaHasSecret(s.Items.Value, seen) {
		return true
	}
	for _, group := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf} {
		for _, ref := range group {
			if ref != nil && schemaHasSecret(ref.Value, seen) {
				return true
			}
		}
	}
	return false
}
