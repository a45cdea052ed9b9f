package api

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
)

// Hand-written encoders of the records GET team, GET post and GET post list answer with (a team,
// its organization and creator, social accounts, uploads), as encoding/json writes them: the
// fields in the order of the generated structs, the same escaping, numbers and nulls. Rare or
// nested values (channels, limits, a promotion code, bots) still go through encoding/json.
// TestRecordJSONMatchesEncoding holds the bytes equal.

// teamGetJSON answers GET team: t, or raw as is (from the cache: the record and a newline); keep,
// when set, is given the record it writes.
type teamGetJSON struct {
	t    TeamDetail
	raw  []byte
	keep func(record []byte)
}

func (r teamGetJSON) VisitTeamGetTeamResponse(w http.ResponseWriter) error {
	if r.raw != nil {
		return writeJSON(w, r.raw)
	}
	e := postEncoder{b: getBuf()}
	defer e.free()
	if err := e.team(&r.t); err != nil {
		return err
	}
	if r.keep != nil {
		r.keep(e.b)
	}
	e.b = append(e.b, '\n')
	return writeJSON(w, e.b)
}

func (e *postEncoder) team(t *TeamDetail) (err error) {
	b := appendStringPtr(append(e.b, `{"avatarUrl":`...), t.AvatarUrl)
	if b, err = appendMarshalPtr(append(b, `,"bio":`...), t.Bio); err != nil {
		return err
	}
	b = append(b, `,"bots":`...)
	if t.Bots == nil {
		b = append(b, "null"...)
	} else if b, err = appendMarshal(b, t.Bots); err != nil {
		return err
	}
	b = e.time(append(b, `,"createdAt":`...), t.CreatedAt)
	b = e.orgOwner(append(b, `,"createdBy":`...), &t.CreatedBy)
	b = appendString(append(b, `,"createdById":`...), t.CreatedById)
	b = e.time(append(b, `,"deletedAt":`...), t.DeletedAt)
	b = appendString(append(b, `,"id":`...), t.Id)
	b = appendString(append(b, `,"name":`...), t.Name)
	if b, err = e.orgSummary(append(b, `,"organization":`...), &t.Organization); err != nil {
		return err
	}
	b = appendString(append(b, `,"organizationId":`...), t.OrganizationId)
	b = append(b, `,"socialAccounts":`...)
	if t.SocialAccounts == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range t.SocialAccounts {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = e.socialAccount(b, &t.SocialAccounts[i]); err != nil {
				return err
			}
		}
		b = append(b, ']')
	}
	b = e.time(append(b, `,"updatedAt":`...), t.UpdatedAt)
	e.b = append(b, '}')
	return e.err
}

func (e *postEncoder) orgOwner(b []byte, u *OrgOwner) []byte {
	b = appendStringPtr(append(b, `{"avatarUrl":`...), u.AvatarUrl)
	b = e.time(append(b, `,"createdAt":`...), u.CreatedAt)
	b = e.time(append(b, `,"deletedAt":`...), u.DeletedAt)
	b = appendString(append(b, `,"email":`...), u.Email)
	b = e.time(append(b, `,"emailVerified":`...), u.EmailVerified)
	b = appendString(append(b, `,"externalId":`...), u.ExternalId)
	b = appendStringPtr(append(b, `,"firstName":`...), u.FirstName)
	b = appendString(append(b, `,"id":`...), u.Id)
	b = appendStringPtr(append(b, `,"lastName":`...), u.LastName)
	b = appendString(append(b, `,"role":`...), string(u.Role))
	b = appendStringPtr(append(b, `,"timezone":`...), u.Timezone)
	b = e.time(append(b, `,"updatedAt":`...), u.UpdatedAt)
	return append(b, '}')
}

func (e *postEncoder) orgSummary(b []byte, o *OrganizationSummary) (_ []byte, err error) {
	b = strconv.AppendBool(append(b, `{"analyticsDisabled":`...), o.AnalyticsDisabled)
	if b, err = appendMarshalPtr(append(b, `,"analyticsInterval":`...), o.AnalyticsInterval); err != nil {
		return b, err
	}
	b = strconv.AppendBool(append(b, `,"analyticsPostsDisabled":`...), o.AnalyticsPostsDisabled)
	if b, err = appendMarshalPtr(append(b, `,"analyticsPostsInterval":`...), o.AnalyticsPostsInterval); err != nil {
		return b, err
	}
	b = strconv.AppendBool(append(b, `,"apiAccess":`...), o.ApiAccess)
	b = appendStringPtr(append(b, `,"avatarUrl":`...), o.AvatarUrl)
	if b, err = appendMarshalPtr(append(b, `,"commentImportLimitPerPost":`...), o.CommentImportLimitPerPost); err != nil {
		return b, err
	}
	b = e.time(append(b, `,"createdAt":`...), o.CreatedAt)
	b = appendString(append(b, `,"createdById":`...), o.CreatedById)
	if b, err = appendMarshalPtr(append(b, `,"dailyCommentLimit":`...), o.DailyCommentLimit); err != nil {
		return b, err
	}
	if b, err = appendMarshalPtr(append(b, `,"dailyPostLimit":`...), o.DailyPostLimit); err != nil {
		return b, err
	}
	b = strconv.AppendInt(append(b, `,"deleteAccountAfter":`...), int64(o.DeleteAccountAfter), 10)
	b = e.time(append(b, `,"deletedAt":`...), o.DeletedAt)
	b = strconv.AppendBool(append(b, `,"disconnectCheckEnabled":`...), o.DisconnectCheckEnabled)
	if b, err = appendMarshalPtr(append(b, `,"forcedAccountAnalyticsDailyLimit":`...), o.ForcedAccountAnalyticsDailyLimit); err != nil {
		return b, err
	}
	if b, err = appendMarshalPtr(append(b, `,"forcedPostAnalyticsDailyLimit":`...), o.ForcedPostAnalyticsDailyLimit); err != nil {
		return b, err
	}
	b = appendString(append(b, `,"id":`...), o.Id)
	for _, f := range []struct {
		name string
		v    *float32
	}{{`,"monthlyAutomationExecutionLimitPerAccount":`, o.MonthlyAutomationExecutionLimitPerAccount},
		{`,"monthlyImportLimitPerAccount":`, o.MonthlyImportLimitPerAccount},
		{`,"monthlyMessageLimitPerAccount":`, o.MonthlyMessageLimitPerAccount},
		{`,"monthlyReviewImportLimitPerAccount":`, o.MonthlyReviewImportLimitPerAccount}} {
		if b, err = appendMarshalPtr(append(b, f.name...), f.v); err != nil {
			return b, err
		}
	}
	b = appendStringPtr(append(b, `,"name":`...), o.Name)
	if b, err = appendMarshalPtr(append(b, `,"promotionCode":`...), o.PromotionCode); err != nil {
		return b, err
	}
	b = appendStringPtr(append(b, `,"promotionCodeId":`...), o.PromotionCodeId)
	b = appendStringPtr(append(b, `,"ref":`...), o.Ref)
	b = strconv.AppendBool(append(b, `,"showVerboseErrors":`...), o.ShowVerboseErrors)
	if o.Suspended != nil { // omitempty
		b = strconv.AppendBool(append(b, `,"suspended":`...), *o.Suspended)
	}
	b = e.time(append(b, `,"updatedAt":`...), o.UpdatedAt)
	b = strconv.AppendBool(append(b, `,"uploadsCompressionEnabled":`...), o.UploadsCompressionEnabled)
	return append(b, '}'), nil
}

func (e *postEncoder) socialAccount(b []byte, a *SocialAccount) (_ []byte, err error) {
	b = appendStringPtr(append(b, `{"avatarUrl":`...), a.AvatarUrl)
	b = appendStringPtr(append(b, `,"bio":`...), a.Bio)
	if b, err = appendMarshalPtr(append(b, `,"channels":`...), a.Channels); err != nil {
		return b, err
	}
	b = e.time(append(b, `,"createdAt":`...), a.CreatedAt)
	b = e.time(append(b, `,"deleteOn":`...), a.DeleteOn)
	b = e.time(append(b, `,"deletedAt":`...), a.DeletedAt)
	b = e.time(append(b, `,"disconnectedCheckTryAt":`...), a.DisconnectedCheckTryAt)
	b = appendStringPtr(append(b, `,"displayName":`...), a.DisplayName)
	b = appendStringPtr(append(b, `,"externalId":`...), a.ExternalId)
	b = appendString(append(b, `,"id":`...), a.Id)
	b = appendStringPtr(append(b, `,"instagramConnectionMethod":`...), (*string)(a.InstagramConnectionMethod))
	b = appendBoolPtr(append(b, `,"isTiktokBusinessAccount":`...), a.IsTiktokBusinessAccount)
	b = appendStringPtr(append(b, `,"mastodonServerId":`...), a.MastodonServerId)
	b = appendStringPtr(append(b, `,"messagingLastError":`...), a.MessagingLastError)
	if a.MessagingStatus != nil { // omitempty
		b = appendString(append(b, `,"messagingStatus":`...), string(*a.MessagingStatus))
	}
	b = e.time(append(b, `,"messagingStatusUpdatedAt":`...), a.MessagingStatusUpdatedAt)
	b = appendStringPtr(append(b, `,"providerPageId":`...), a.ProviderPageId)
	b = appendString(append(b, `,"teamId":`...), a.TeamId)
	b = appendStringPtr(append(b, `,"twitterSubType":`...), (*string)(a.TwitterSubType))
	b = appendString(append(b, `,"type":`...), string(a.Type))
	b = e.time(append(b, `,"updatedAt":`...), a.UpdatedAt)
	b = appendStringPtr(append(b, `,"userDisplayName":`...), a.UserDisplayName)
	b = appendStringPtr(append(b, `,"userEmail":`...), a.UserEmail)
	b = appendStringPtr(append(b, `,"userId":`...), a.UserId)
	b = appendStringPtr(append(b, `,"userUsername":`...), a.UserUsername)
	b = appendStringPtr(append(b, `,"username":`...), a.Username)
	return append(b, '}'), nil
}

func (e *postEncoder) upload(b []byte, u *Upload) (_ []byte, err error) {
	b = e.time(append(b, `{"createdAt":`...), u.CreatedAt)
	b = appendStringPtr(append(b, `,"ext":`...), u.Ext)
	b = appendStringPtr(append(b, `,"externalLink":`...), u.ExternalLink)
	if b, err = appendFloat64Ptr(append(b, `,"fileSize":`...), u.FileSize); err != nil {
		return b, err
	}
	if b, err = appendFloat64Ptr(append(b, `,"height":`...), u.Height); err != nil {
		return b, err
	}
	b = appendStringPtr(append(b, `,"iconPath":`...), u.IconPath)
	b = appendStringPtr(append(b, `,"iconUrl":`...), u.IconUrl)
	b = appendString(append(b, `,"id":`...), u.Id)
	b = appendStringPtr(append(b, `,"mime":`...), u.Mime)
	b = appendStringPtr(append(b, `,"organizationId":`...), u.OrganizationId)
	b = appendStringPtr(append(b, `,"path":`...), u.Path)
	b = appendStringPtr(append(b, `,"teamId":`...), u.TeamId)
	b = appendStringPtr(append(b, `,"thumbnailPath":`...), u.ThumbnailPath)
	b = appendStringPtr(append(b, `,"thumbnailUrl":`...), u.ThumbnailUrl)
	b = appendString(append(b, `,"type":`...), string(u.Type))
	b = e.time(append(b, `,"updatedAt":`...), u.UpdatedAt)
	b = appendStringPtr(append(b, `,"url":`...), u.Url)
	if b, err = appendFloat64Ptr(append(b, `,"videoLength":`...), u.VideoLength); err != nil {
		return b, err
	}
	if b, err = appendFloat64Ptr(append(b, `,"width":`...), u.Width); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func appendBoolPtr(b []byte, v *bool) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendBool(b, *v)
}

// appendFloat64Ptr writes f as encoding/json does; the rare exponent form and the values it
// refuses (NaN, ±Inf) go through it.
func appendFloat64Ptr(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	if a := math.Abs(*f); a != 0 && (a < 1e-6 || a >= 1e21) || math.IsNaN(*f) || math.IsInf(*f, 0) {
		j, err := json.Marshal(*f)
		return append(b, j...), err
	}
	return strconv.AppendFloat(b, *f, 'f', -1, 64), nil
}
