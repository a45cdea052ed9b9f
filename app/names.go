package app

import "strings"

// Names people type: the spec and the reference set no maximum for a person's name; 100 characters
// keeps one on a line of the top bar, the member list and the mails. Organization names are 1 to 100
// characters wherever they are given (sign-up, a new organization, settings).
const (
	MaxPersonName       = 100 // firstName, lastName
	MaxOrganizationName = 100
)

// MaxPostTitle is a post's title's maximum (the spec sets none): the title labels the post in the
// dashboard; networks' own titles (YouTube, Reddit, Pinterest) have their own rules. The API's
// contract check and the service (so the dashboard too) refuse longer.
const MaxPostTitle = 1_000

// CheckMax adds a too_big issue at field when v, trimmed as it will be stored, is longer than max
// characters.
func CheckMax(issues []Issue, v string, max int, field string) []Issue {
	return checkMax(issues, &v, max, field)
}

// checkMax adds a too_big issue at field when v, trimmed as it will be stored, is longer than max
// characters; nil passes.
func checkMax(issues []Issue, v *string, max int, field string) []Issue {
	if v != nil && len([]rune(strings.TrimSpace(*v))) > max {
		issues = append(issues, StringMax(max, field))
	}
	return issues
}

// defaultOrganizationName names a sign-up's organization after its owner ("Ada's organization"),
// the first name shortened so the name stays within MaxOrganizationName (settings would refuse it).
func defaultOrganizationName(firstName string) string {
	const suffix = "'s organization"
	r := []rune(firstName)
	if room := MaxOrganizationName - len([]rune(suffix)); len(r) > room {
		r = []rune(strings.TrimSpace(string(r[:room])))
	}
	return string(r) + suffix
}
