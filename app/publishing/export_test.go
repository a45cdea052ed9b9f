package publishing

// Internals the external tests (package publishing_test, which can import the networks) reach.
var (
	ApplyPostDefaults = applyPostDefaults
	PayloadOf         = payloadOf
	ParsePostDate     = parsePostDate
)
