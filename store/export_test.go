package store

// The SQL of the hot reads, for explain_test.go (an external test: storetest imports store).
var (
	GetAPIKeyForAuthSQL         = getAPIKeyForAuth
	TouchAPIKeysSQL             = touchAPIKeys
	ReadPostsOfOrgSQL           = readPostsOfOrgX
	ReadOrgShowVerboseErrorsSQL = readOrgShowVerboseErrors
	ReadTeamLiveSQL             = readTeamLive
	ReadOnePostOfOrgSQL         = readOnePostOfOrg
	ReadOnePostTargetsOfOrgSQL  = readOnePostTargetsOfOrg
	ReadOnePostUploadLinksSQL   = readOnePostUploadLinks
	ReadPostUploadLinksSQL      = readPostUploadLinksX
	ReadTeamRecordSQL           = readTeamRecordX
	ReadTeamVersionSQL          = readTeamVersion
	ListPostVersionsSQL         = pageVersionStatement(PostListFilter{Descending: true}, []string{"organization_id = $1", "team_id = $2", "deleted_at IS NULL"}, 4)
	ReadPostForUpdateSQL        = readPostForUpdate
	ReadPostTeamAccountsSQL     = readPostTeamAccounts
	ReadTeamAccountsSQL         = readTeamAccounts
	ReadPostEditUploadsSQL      = readPostEditUploadsVersioned
	ReadTeamForPostSQL          = readTeamForPostWithAccounts
	ReadPostToEditSQL           = readPostToEditWithAccounts
)

// StartPostAttemptSQL is tx1's statement, for publish_start_test.go's plan check.
var StartPostAttemptSQL = startPostAttempt
