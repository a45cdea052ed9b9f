package web

import (
	"time"

	"github.com/crier/crier/app"
)

// partlyPublished reports whether a failed post published on some networks (it has a posted date
// once one of them posted, or a POSTED target): the dashboard says "Partly published".
func partlyPublished(status app.PostStatus, posted *time.Time, targets []app.PostTarget) bool {
	if status != app.PostError {
		return false
	}
	if posted != nil {
		return true
	}
	for _, t := range targets {
		if t.Kind == app.TargetPost && t.Status == app.PostPosted {
			return true
		}
	}
	return false
}
