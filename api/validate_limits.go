package api

import (
	"fmt"

	"github.com/crier/crier/app"
)

// Limits on what a request may hold, checked before the schema so that validation stays linear
// and bounded whatever a client sends (issue 14). They are far above what any request of the
// contract needs (its longest array, the parts of a multipart upload, holds 10,000 objects of two
// keys; its objects nest a few levels deep; uploads have a handful of form fields). The body size
// is bounded before: by Echo's body limit of each operation (jsonBodyLimit, multipartBodyLimit).
const (
	maxJSONKeys       = 50_000  // object keys in a JSON body, all objects together
	maxJSONArrayItems = 100_000 // items of one JSON array
	maxJSONDepth      = 32      // objects and arrays nested in one another
	maxMultipartParts = 100     // parts of a multipart/form-data body
	maxIssues         = 100     // issues reported; one more says how many were left out
)

// limitError is a body beyond one of the limits; its message is the issue's.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// checkJSONLimits walks a decoded JSON value, in time linear in its size.
func checkJSONLimits(value any) error {
	keys := 0
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		switch v := v.(type) {
		case map[string]any:
			if depth > maxJSONDepth {
				return &limitError{fmt.Sprintf("Request body nests deeper than %d levels", maxJSONDepth)}
			}
			keys += len(v)
			if keys > maxJSONKeys {
				return &limitError{fmt.Sprintf("Request body holds more than %d keys", maxJSONKeys)}
			}
			for _, item := range v {
				if err := walk(item, depth+1); err != nil {
					return err
				}
			}
		case []any:
			if depth > maxJSONDepth {
				return &limitError{fmt.Sprintf("Request body nests deeper than %d levels", maxJSONDepth)}
			}
			if len(v) > maxJSONArrayItems {
				return &limitError{fmt.Sprintf("Request body holds an array of more than %d items", maxJSONArrayItems)}
			}
			for _, item := range v {
				if err := walk(item, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(value, 1)
}

// capIssues keeps the first maxIssues of sorted issues, and says how many more there were.
func capIssues(issues []app.Issue) []app.Issue {
	if len(issues) <= maxIssues {
		return issues
	}
	more := len(issues) - maxIssues
	return append(issues[:maxIssues:maxIssues],
		app.Issue{Code: app.IssueCustom, Message: fmt.Sprintf("Too many issues: %d more not listed", more), Path: []any{}})
}
