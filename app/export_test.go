package app

// Internals the external tests (package app_test, which can import the networks) reach.
var (
	CheckPostRules    = checkPostRules
	RuleUploadIDs     = ruleUploadIDs
	ApplyPostDefaults = applyPostDefaults
	PayloadOf         = payloadOf
	ParsePostDate     = parsePostDate
)

func (d *PostData) EnsurePayload(n Network) { d.ensurePayload(n) }
