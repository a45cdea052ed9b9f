package sandbox

import (
	"net/http"
	"strings"

	"github.com/crier/crier/app"
)

// Instagram through Facebook Login: Facebook's dialog, token and Graph shapes; each simulated page
// but the last has an Instagram professional account linked (instagram_business_account), so a
// page without one is skipped as on the real Graph. Instagram Login's endpoints are
// instagram_login.go.
func instagramDialect() *dialect {
	d := facebookDialect()
	d.seg, d.title, d.network = "instagram", "Instagram", app.Instagram
	facebookUser := d.newUser
	d.newUser = func(n *Net, u *User) {
		facebookUser(n, u)
		u.Channels = append(u.Channels, Channel{ID: numericID(u.ID + "/page-noig"), Name: "Sandbox Page without Instagram", Token: randID("facebook-page-")})
		for i := range u.Channels[:len(u.Channels)-1] {
			c := &u.Channels[i]
			c.IGID = "1784" + numericID(c.ID)[:11]
			c.IGUsername = strings.ReplaceAll(strings.ToLower(c.Name), " ", "_")
		}
	}
	d.routes["GET /"+GraphVersion+"/me/accounts"] = instagramAccounts
	instagramPublish(d)
	instagramLogin(d) // instagram_login.go
	return d
}

func instagramAccounts(q *req) {
	data := []map[string]any{}
	for _, c := range q.user.Channels {
		p := map[string]any{"id": c.ID, "name": c.Name, "access_token": c.Token}
		if c.IGID != "" {
			p["instagram_business_account"] = map[string]any{"id": c.IGID, "username": c.IGUsername, "name": c.Name,
				"profile_picture_url": "https://sandbox.crier.invalid/instagram/" + c.IGUsername + ".jpg"}
		}
		data = append(data, p)
	}
	q.json(http.StatusOK, map[string]any{"data": data, "paging": map[string]any{"cursors": map[string]string{"before": "QVFIUk", "after": "QVFIUl"}}})
}
