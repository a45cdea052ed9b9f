package app

// SocialAccountTokensRefreshArgs is the periodic job that refreshes network tokens before they expire.
type SocialAccountTokensRefreshArgs struct{}

func (SocialAccountTokensRefreshArgs) Kind() string { return "social_account_tokens_refresh" }

// SocialAccountPurgeArgs is the periodic job that purges disconnected accounts past their deleteOn.
type SocialAccountPurgeArgs struct{}

func (SocialAccountPurgeArgs) Kind() string { return "social_account_purge" }
