package app

import "time"

// TEMPORARY stub: app/post_rules.go (the validation rules helper's file) replaces this file at merge.

// PostRuleInput is what the rules beyond the schema need.
type PostRuleInput struct {
	Data               *PostData
	SocialAccountTypes []Network
	Status             string
	PostDate, Now      time.Time
	Accounts           map[Network]*SocialAccount /* the team's live accounts */
	Uploads            map[string]*Upload         /* uploads of the org named by the payloads; absent = not found */
	FirstComment       map[Network]string
}

// checkPostRules answers the issues of a post beyond the schema (stub: none).
func checkPostRules(in PostRuleInput) []Issue { return nil }
