package app

import (
	"context"

	"github.com/crier/crier/store"
)

// TeamVersion answers the version of the caller's organization's team id (store/team_read.go), for
// a reader that keeps GET team's records and checks each is current before answering it (the
// API's cache); ok is false when there is no such team (the caller's full read answers the error).
// A plain read on the pool: what a version pairs with is committed.
func (s *Service) TeamVersion(ctx context.Context, id string) (v int64, ok bool, err error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return 0, false, err
	}
	return store.ReadTeamVersion(ctx, s.db, pr.OrganizationID, id)
}
