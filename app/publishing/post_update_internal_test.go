package publishing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/store"
)

// An edit's write carries only the targets it changes: a reschedule to the values read (the
// stored payload in jsonb's spelling) is dropped; another status, date, account or payload, or a
// leftover error, is kept.
func TestChangedTargets(t *testing.T) {
	due := time.Date(2026, 12, 1, 10, 0, 0, 123000, time.UTC)
	acct, other := "a1", "a2"
	read := []store.PublishTarget{{ID: "t1", Status: "DRAFT", DueAt: &due, SocialAccountID: &acct, Payload: []byte(`{"text": "m", "uploadIds": ["u"]}`)}}
	same := func(f func(r *store.RescheduleTargetParams)) []store.TargetWrite {
		d := due.In(time.FixedZone("x", 3600))
		r := &store.RescheduleTargetParams{ID: "t1", Status: "DRAFT", DueAt: &d, SocialAccountID: &acct, Payload: []byte(`{"uploadIds":["u"],"text":"m"}`)}
		if f != nil {
			f(r)
		}
		return []store.TargetWrite{{Reschedule: r}, {Delete: "t9"}}
	}
	require.Equal(t, []store.TargetWrite{{Delete: "t9"}}, changedTargets(same(nil), read), "unchanged: dropped")
	for name, f := range map[string]func(r *store.RescheduleTargetParams){
		"status":  func(r *store.RescheduleTargetParams) { r.Status = "SCHEDULED" },
		"date":    func(r *store.RescheduleTargetParams) { d := due.Add(time.Microsecond); r.DueAt = &d },
		"account": func(r *store.RescheduleTargetParams) { r.SocialAccountID = &other },
		"no acct": func(r *store.RescheduleTargetParams) { r.SocialAccountID = nil },
		"payload": func(r *store.RescheduleTargetParams) { r.Payload = []byte(`{"text":"m2","uploadIds":["u"]}`) },
		"number":  func(r *store.RescheduleTargetParams) { r.Payload = []byte(`{"text":"m","uploadIds":["u"],"n":1}`) },
	} {
		require.Len(t, changedTargets(same(f), read), 2, name)
	}
	msg := "failed"
	read[0].Error = &msg
	require.Len(t, changedTargets(same(nil), read), 2, "a leftover error is cleared by a rewrite")
}
