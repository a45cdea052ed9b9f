package googlebusiness

// Publishing local posts (My Business API v4): POST /v4/{accounts/a/locations/l}/localPosts with a
// LocalPost (summary, topicType STANDARD|EVENT|OFFER|ALERT, callToAction, event, offer, alertType,
// media by sourceUrl — Google pulls the photo). The answer's name is the post id and its searchUrl
// the public link. There is no idempotency key: the attempt is marked before the call, and Find
// lists the location's posts created after it with the same summary. Delete is DELETE /v4/{name}.
// Local posts have no comments (reviews are answered elsewhere), so there is no Replier.

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

const checkpointPost = "gbp.post"

type date struct {
	Year  int `json:"year"`
	Month int `json:"month"`
	Day   int `json:"day"`
}

type timeOfDay struct {
	Hours   int `json:"hours"`
	Minutes int `json:"minutes"`
	Seconds int `json:"seconds,omitempty"`
}

type localPost struct {
	Name         string `json:"name,omitempty"`
	LanguageCode string `json:"languageCode,omitempty"`
	Summary      string `json:"summary,omitempty"`
	TopicType    string `json:"topicType,omitempty"`
	AlertType    string `json:"alertType,omitempty"`
	CallToAction *struct {
		ActionType string `json:"actionType"`
		URL        string `json:"url,omitempty"`
	} `json:"callToAction,omitempty"`
	Event *struct {
		Title    string `json:"title"`
		Schedule *struct {
			StartDate date       `json:"startDate"`
			StartTime *timeOfDay `json:"startTime,omitempty"`
			EndDate   date       `json:"endDate"`
			EndTime   *timeOfDay `json:"endTime,omitempty"`
		} `json:"schedule,omitempty"`
	} `json:"event,omitempty"`
	Offer *struct {
		CouponCode      string `json:"couponCode,omitempty"`
		RedeemOnlineURL string `json:"redeemOnlineUrl,omitempty"`
		TermsConditions string `json:"termsConditions,omitempty"`
	} `json:"offer,omitempty"`
	Media []struct {
		MediaFormat string `json:"mediaFormat"`
		SourceURL   string `json:"sourceUrl,omitempty"`
		GoogleURL   string `json:"googleUrl,omitempty"`
	} `json:"media,omitempty"`
	State      string `json:"state,omitempty"`
	SearchURL  string `json:"searchUrl,omitempty"`
	CreateTime string `json:"createTime,omitempty"`
}

func (p *localPost) published() *app.Published {
	return &app.Published{ExternalID: p.Name, Permalink: p.SearchURL, Extra: map[string]string{"state": p.State}}
}

// build turns the payload into a LocalPost.
func build(pl *Payload, media []app.MediaFile) (*localPost, error) {
	lp := &localPost{LanguageCode: pl.LanguageCode, Summary: pl.Text, TopicType: pl.TopicType}
	if lp.TopicType == "" {
		lp.TopicType = "STANDARD"
	}
	if pl.CallToActionType != "" {
		lp.CallToAction = &struct {
			ActionType string `json:"actionType"`
			URL        string `json:"url,omitempty"`
		}{ActionType: pl.CallToActionType}
		if pl.CallToActionType != "CALL" {
			lp.CallToAction.URL = pl.CallToActionURL
		}
	}
	if lp.TopicType == "EVENT" || lp.TopicType == "OFFER" {
		lp.Event = &struct {
			Title    string `json:"title"`
			Schedule *struct {
				StartDate date       `json:"startDate"`
				StartTime *timeOfDay `json:"startTime,omitempty"`
				EndDate   date       `json:"endDate"`
				EndTime   *timeOfDay `json:"endTime,omitempty"`
			} `json:"schedule,omitempty"`
		}{Title: pl.EventTitle}
		if pl.EventStartDate != "" || pl.EventEndDate != "" {
			start, err := parseWhen(pl.EventStartDate)
			if err != nil {
				return nil, pubutil.Refused(app.GoogleBusiness, "eventStartDate %q is not a date-time", pl.EventStartDate)
			}
			end, err := parseWhen(pl.EventEndDate)
			if err != nil {
				return nil, pubutil.Refused(app.GoogleBusiness, "eventEndDate %q is not a date-time", pl.EventEndDate)
			}
			lp.Event.Schedule = &struct {
				StartDate date       `json:"startDate"`
				StartTime *timeOfDay `json:"startTime,omitempty"`
				EndDate   date       `json:"endDate"`
				EndTime   *timeOfDay `json:"endTime,omitempty"`
			}{StartDate: dateOf(start), StartTime: timeOf(start), EndDate: dateOf(end), EndTime: timeOf(end)}
		}
	}
	if lp.TopicType == "OFFER" && (pl.OfferCouponCode != "" || pl.OfferRedeemOnlineURL != "" || pl.OfferTermsConditions != "") {
		lp.Offer = &struct {
			CouponCode      string `json:"couponCode,omitempty"`
			RedeemOnlineURL string `json:"redeemOnlineUrl,omitempty"`
			TermsConditions string `json:"termsConditions,omitempty"`
		}{pl.OfferCouponCode, pl.OfferRedeemOnlineURL, pl.OfferTermsConditions}
	}
	if lp.TopicType == "ALERT" {
		lp.AlertType = pl.AlertType
		if lp.AlertType == "" {
			lp.AlertType = "COVID_19"
		}
	}
	for _, m := range media {
		if pubutil.IsVideo(m) {
			return nil, pubutil.Refused(app.GoogleBusiness, "Google Business Profile posts take photos only; the API does not publish videos")
		}
		if m.URL == "" {
			return nil, pubutil.Refused(app.GoogleBusiness, "upload %s has no public URL for Google to fetch", m.UploadID)
		}
		lp.Media = append(lp.Media, struct {
			MediaFormat string `json:"mediaFormat"`
			SourceURL   string `json:"sourceUrl,omitempty"`
			GoogleURL   string `json:"googleUrl,omitempty"`
		}{MediaFormat: "PHOTO", SourceURL: m.URL})
	}
	return lp, nil
}

func parseWhen(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", s)
}

func dateOf(t time.Time) date { return date{t.Year(), int(t.Month()), t.Day()} }

func timeOf(t time.Time) *timeOfDay {
	return &timeOfDay{Hours: t.Hour(), Minutes: t.Minute(), Seconds: t.Second()}
}

// location answers the post parent: the request's channel, else the account's selected one.
func location(t *app.Token, req *app.PublishRequest) (string, error) {
	id := ""
	if req.Channel != nil {
		id = req.Channel.ID
	} else if t != nil && t.Secrets != nil {
		id = t.Secrets["channelId"]
	}
	if !strings.Contains(id, "/locations/") {
		return "", pubutil.Refused(app.GoogleBusiness, "no Business Profile location is selected for this account")
	}
	return id, nil
}

// Publish creates the local post.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	parent, err := location(t, req)
	if err != nil {
		return nil, err
	}
	if name := req.Checkpointed(checkpointPost); name != "" {
		return a.get(ctx, t, name)
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.GoogleBusiness, "the post has no GOOGLE_BUSINESS payload")
	}
	lp, err := build(pl, req.Media)
	if err != nil {
		return nil, err
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return nil, err
	}
	var out localPost
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.posts + "/v4/" + parent + "/localPosts", Bearer: t.AccessToken, JSON: lp}, &out); err != nil {
		return nil, err
	}
	if out.State == "REJECTED" {
		return nil, &app.NetworkError{Network: app.GoogleBusiness, Class: app.ErrPermanent, Status: http.StatusOK, Code: "REJECTED",
			Message: "Google rejected the post (state REJECTED): it breaks a content policy"}
	}
	if err := req.Save(ctx, checkpointPost, out.Name); err != nil {
		return nil, err
	}
	return out.published(), nil
}

func (a *Adapter) get(ctx context.Context, t *app.Token, name string) (*app.Published, error) {
	var out localPost
	if err := a.api.Do(ctx, core.Request{URL: a.posts + "/v4/" + name, Bearer: t.AccessToken}, &out); err != nil {
		return nil, err
	}
	return out.published(), nil
}

// Find answers the post by its checkpointed name, else the location's post created after the
// attempt with the same summary.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	parent, err := location(t, req)
	if err != nil {
		return nil, err
	}
	if name := req.Checkpointed(checkpointPost); name != "" {
		p, err := a.get(ctx, t, name)
		if app.ClassOf(err) == app.ErrPermanent {
			return nil, nil // deleted since
		}
		return p, err
	}
	at, ok := pubutil.AttemptAt(req)
	if !ok {
		return nil, nil
	}
	text := ""
	if req.Payload != nil {
		text = req.Payload.Body()
	}
	page := ""
	near := pubutil.NewNearest(at)
	var candidates []localPost
	for i := 0; i < 5; i++ {
		var l struct {
			LocalPosts    []localPost `json:"localPosts"`
			NextPageToken string      `json:"nextPageToken"`
		}
		u := a.posts + "/v4/" + parent + "/localPosts?pageSize=100"
		if page != "" {
			u += "&pageToken=" + url.QueryEscape(page)
		}
		if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &l); err != nil {
			return nil, err
		}
		older := false
		for _, p := range l.LocalPosts {
			created, err := time.Parse(time.RFC3339Nano, p.CreateTime)
			if err != nil || !pubutil.After(created, at) {
				older = true
				continue
			}
			if pubutil.SameText(p.Summary, text) && len(p.Media) == len(req.Media) {
				near.Offer(len(candidates), created)
				candidates = append(candidates, p)
			}
		}
		if page = l.NextPageToken; page == "" || older {
			break
		}
	}
	if near.Index < 0 {
		return nil, nil
	}
	return candidates[near.Index].published(), nil
}

// Delete removes the local post.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	if !strings.Contains(req.ExternalID, "/localPosts/") {
		return pubutil.Refused(app.GoogleBusiness, "%q is not a local post name", req.ExternalID)
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.posts + "/v4/" + req.ExternalID, Bearer: t.AccessToken}, nil)
}

var _ app.Publisher = (*Adapter)(nil)
