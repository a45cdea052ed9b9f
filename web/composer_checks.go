package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	composerview "github.com/crier/crier/views/pages/composer"
)

// The composer's checks: its own (a day, a network), the Service's issues mapped to the form's
// fields, and the networks' media rules (Issue.Rule) shown beside each network, in the words below.
// The preview runs them as the user types and picks (CheckPost saves nothing), so a message clears
// once its cause is fixed and a media rule shows before any submit.

// ownChecks are the composer's own refusals for a save as status.
func (in *composerInput) ownChecks(status app.PostStatus) {
	if in.PostDate == nil && in.Errors["date"] == "" && in.Errors["time"] == "" && status != app.PostDraft {
		in.Errors["date"] = "Choose the day to publish"
	}
	if len(in.Networks) == 0 && status != app.PostDraft {
		in.Errors["networks"] = "Choose at least one network"
	}
}

// postParams is the form as the Service's parameters for a save as status (without the first
// comments and the team, which differ between create and update).
func (in composerInput) postParams(status app.PostStatus) app.PostParams {
	data := in.Data
	p := app.PostParams{Title: &in.Title, Status: &status, SocialAccountTypes: in.Networks, Data: &data}
	if p.SocialAccountTypes == nil {
		p.SocialAccountTypes = []app.Network{}
	}
	if in.PostDate != nil {
		s := in.PostDate.UTC().Format(time.RFC3339)
		p.PostDate = &s
	}
	return p
}

// addIssues puts the Service's issues beside their fields (a network's media rule beside the
// network), and answers the message of those that name no field (fallback: the error's).
func (in *composerInput) addIssues(issues []app.Issue, fallback string) (message string) {
	for _, is := range issues {
		if is.Rule != "" && len(is.Path) >= 2 && is.Path[0] == "data" {
			in.Rules = append(in.Rules, is)
			continue
		}
		name := in.issueName(is.Path)
		if name == "" {
			message = fallback
			continue
		}
		text := issueText(is)
		// A network's text that comes from the shared text: the error goes under the shared text.
		if net, key, _ := strings.Cut(name, "."); key == "text" && strings.TrimSpace(in.Values.Get(name)) == "" {
			if prev := in.Errors["text"]; prev != "" {
				text = prev + " · " + app.Network(net).DisplayName() + ": " + text
			} else {
				text = app.Network(net).DisplayName() + ": " + text
			}
			in.Errors["text"] = text
			continue
		}
		if in.Errors[name] == "" {
			in.Errors[name] = text
		}
	}
	return message
}

// checkedStatus is the status a refused save asked for (the form's "checked": its action), which
// the live checks use so a message of that save stays until fixed; DRAFT before any save (only
// what is wrong, not what is missing).
func checkedStatus(action string) app.PostStatus {
	switch action {
	case actionSchedule, actionNow:
		return app.PostScheduled
	case actionReview:
		return app.PostReview
	}
	return app.PostDraft
}

// liveCheck runs the checks of a save of the form as it is now (nothing is saved): in.Errors and
// in.Rules hold the answer.
func (h *Handler) liveCheck(c echo.Context, in *composerInput, teamID string) error {
	action := in.Values.Get("checked")
	status := checkedStatus(action)
	if action == actionNow {
		delete(in.Errors, "date")
		delete(in.Errors, "time")
	} else {
		in.ownChecks(status)
	}
	if len(in.Networks) == 0 {
		return nil
	}
	p := in.postParams(status)
	p.TeamID = teamID
	if action == actionNow {
		p.PostDate = nil
	}
	issues, err := h.pub.CheckPost(c.Request().Context(), p)
	switch app.ErrorCode(err) {
	case "":
	case app.EForbidden, app.ENotFound:
		return nil // the save would say so; the previews still show
	default:
		return err
	}
	for _, is := range issues {
		// The composer fills the title, and "now" has no date yet; neither is the user's to fix.
		if len(is.Path) > 0 && (is.Path[0] == "title" || (action == actionNow && is.Path[0] == "postDate")) {
			continue
		}
		in.addIssues([]app.Issue{is}, "")
	}
	return nil
}

// netChecks are the media rule issues grouped by network, in the networks' order, worded.
func netChecks(in composerInput) []composerview.NetCheck {
	var out []composerview.NetCheck
	for _, n := range in.Networks {
		nc := composerview.NetCheck{Network: string(n), Name: n.DisplayName()}
		seen := map[string]bool{}
		for _, is := range in.Rules {
			if len(is.Path) < 2 || is.Path[1] != string(n) {
				continue
			}
			it := composerview.CheckItem{Text: ruleWords(n, is)}
			if seen[it.Text] {
				// The same rule on several uploads reads once; its conversion takes them all.
				if id := pngForJPEG(in, is); id != "" {
					for i := range nc.Items {
						if nc.Items[i].Text == it.Text && nc.Items[i].Convert != "" && !strings.Contains(nc.Items[i].Convert, id) {
							nc.Items[i].Convert += " " + id
						}
					}
				}
				continue
			}
			seen[it.Text] = true
			if is.Fix != nil {
				it.FixName, it.FixValue, it.FixLabel = fieldName(n, is.Fix.Key), is.Fix.Value, is.Fix.Label
			} else if id := pngForJPEG(in, is); id != "" {
				it.Convert = id
			}
			nc.Items = append(nc.Items, it)
		}
		if len(nc.Items) > 0 {
			out = append(out, nc)
		}
	}
	return out
}

// pngForJPEG is the upload of a network's "needs a JPEG, this one is a PNG" rule, which the
// composer offers to convert (a JPEG copy replaces it in the form: composerConvert); "" for other
// issues.
func pngForJPEG(in composerInput, is app.Issue) string {
	if is.Rule != app.RuleFormat || is.Got != "PNG" || !strings.Contains(is.Want, "JPEG") || len(is.Path) < 3 {
		return ""
	}
	p := in.Data.Of(app.Network(fmt.Sprint(is.Path[1])))
	if p == nil {
		return ""
	}
	var at any = payloadMap(p)
	for _, k := range is.Path[2:] {
		switch k := k.(type) {
		case string:
			m, _ := at.(map[string]any)
			at = m[k]
		case int:
			l, _ := at.([]any)
			if k < 0 || k >= len(l) {
				return ""
			}
			at = l[k]
		default:
			return ""
		}
	}
	id, _ := at.(string)
	return id
}
