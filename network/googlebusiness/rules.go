package googlebusiness

import (
	"fmt"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

// §14 Google Business: summary 1,500; at most one photo JPEG/PNG 10 KB–5 MB, ≥ 250×250, no video;
// EVENT and OFFER need a title and a start and end; a call to action needs a URL except CALL.
func check(c *app.PostCheck, base []any, pl app.Payload) {
	p := pl.(*Payload)
	n := app.GoogleBusiness
	used, limit := app.Runes(p.Text), textLimit
	c.TextMax(n, app.JoinPath(base, "text"), used, limit, "characters", "text")
	m := c.ListMedia(base, "uploadIds", p.UploadIDs)
	c.OnlyKinds(n, m, "photos (videos cannot be posted through its API)", app.MediaImage, app.MediaGIF)
	c.Count(n, m, 0, 1, "one photo per post")
	c.Formats(n, m, app.MediaImage, media.MIMEJPEG, media.MIMEPNG)
	c.MaxSize(n, m, app.MediaImage, 5*app.MiB)
	c.MinSize(n, m, app.MediaImage, 10*1024)
	c.Sides(n, m, app.MediaImage, 250, 0)

	topic := p.TopicType
	if topic == "" {
		topic = "STANDARD"
	}
	if topic == "EVENT" || topic == "OFFER" {
		what := map[string]string{"EVENT": "An event", "OFFER": "An offer"}[topic]
		c.Required(p.EventTitle, what+" post needs a title (eventTitle)", app.JoinPath(base, "eventTitle")...)
		start := gbDate(c, p.EventStartDate, what+" post needs a start date (eventStartDate)", app.JoinPath(base, "eventStartDate"))
		end := gbDate(c, p.EventEndDate, what+" post needs an end date (eventEndDate)", app.JoinPath(base, "eventEndDate"))
		switch {
		case !start.IsZero() && !end.IsZero() && !end.After(start):
			c.Add(app.IssueCustom, "The end date must be after the start date", app.JoinPath(base, "eventEndDate")...)
		case c.Publishing() && !end.IsZero() && !c.PostDate().IsZero() && end.Before(c.PostDate()):
			c.Add(app.IssueCustom, "The end date is before the post would be published", app.JoinPath(base, "eventEndDate")...)
		}
	} else {
		for _, f := range []struct{ name, v string }{{"eventTitle", p.EventTitle}, {"eventStartDate", p.EventStartDate}, {"eventEndDate", p.EventEndDate}} {
			if f.v != "" {
				c.Add(app.IssueCustom, fmt.Sprintf("%s is for EVENT and OFFER posts (this one is %s)", f.name, topic), app.JoinPath(base, f.name)...)
			}
		}
	}
	if topic != "OFFER" {
		for _, f := range []struct{ name, v string }{{"offerCouponCode", p.OfferCouponCode}, {"offerRedeemOnlineUrl", p.OfferRedeemOnlineURL}, {"offerTermsConditions", p.OfferTermsConditions}} {
			if f.v != "" {
				c.Add(app.IssueCustom, fmt.Sprintf("%s is for OFFER posts (this one is %s)", f.name, topic), app.JoinPath(base, f.name)...)
			}
		}
	}
	c.URL(p.OfferRedeemOnlineURL, "The offer's link must be a web address starting with http:// or https://", app.JoinPath(base, "offerRedeemOnlineUrl")...)
	ctaURL := app.JoinPath(base, "callToActionUrl")
	switch p.CallToActionType {
	case "":
		if p.CallToActionURL != "" {
			c.Add(app.IssueCustom, "Choose the button (callToActionType) this URL belongs to", app.JoinPath(base, "callToActionType")...)
		}
	case "CALL":
		if p.CallToActionURL != "" {
			c.Add(app.IssueCustom, "A Call button dials the business's phone number: remove the URL", ctaURL...)
		}
	default:
		if c.Required(p.CallToActionURL, "The button needs a URL (callToActionUrl)", ctaURL...) {
			c.URL(p.CallToActionURL, "The button's URL must be a web address starting with http:// or https://", ctaURL...)
		}
	}
	c.NeedSomething(n, p.Text, m, topic == "EVENT" && p.EventTitle != "", topic == "OFFER" && p.EventTitle != "")
}

func gbDate(c *app.PostCheck, v, missing string, path []any) time.Time {
	if !c.Required(v, missing, path...) {
		return time.Time{}
	}
	t, ok := app.ParseTime(v)
	if !ok {
		c.Add(app.IssueInvalidDate, "Write the date and time like 2026-06-01T18:00:00Z", path...)
	}
	return t
}
