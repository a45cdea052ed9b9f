package store

// The worker's fast-path rows carry a target's columns beside others (publish.sql); these answer
// the target alone.

// Target is the started target.
func (r StartPostAttemptRow) Target() PublishTarget {
	return PublishTarget{ID: r.ID, OrganizationID: r.OrganizationID, Kind: r.Kind, PostID: r.PostID, CommentID: r.CommentID,
		Network: r.Network, SocialAccountID: r.SocialAccountID, Status: r.Status, Payload: r.Payload, AttemptKey: r.AttemptKey,
		Attempts: r.Attempts, AttemptStartedAt: r.AttemptStartedAt, OutcomeUnknown: r.OutcomeUnknown, Checkpoints: r.Checkpoints,
		Version: r.Version, DueAt: r.DueAt, NextAttemptAt: r.NextAttemptAt, ExternalID: r.ExternalID, Permalink: r.Permalink,
		Extra: r.Extra, Error: r.Error, ErrorVerbose: r.ErrorVerbose, PostedAt: r.PostedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// Target is one target of the post.
func (r PostTargetPostedRow) Target() PublishTarget {
	return PublishTarget{ID: r.ID, OrganizationID: r.OrganizationID, Kind: r.Kind, PostID: r.PostID, CommentID: r.CommentID,
		Network: r.Network, SocialAccountID: r.SocialAccountID, Status: r.Status, Payload: r.Payload, AttemptKey: r.AttemptKey,
		Attempts: r.Attempts, AttemptStartedAt: r.AttemptStartedAt, OutcomeUnknown: r.OutcomeUnknown, Checkpoints: r.Checkpoints,
		Version: r.Version, DueAt: r.DueAt, NextAttemptAt: r.NextAttemptAt, ExternalID: r.ExternalID, Permalink: r.Permalink,
		Extra: r.Extra, Error: r.Error, ErrorVerbose: r.ErrorVerbose, PostedAt: r.PostedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}
