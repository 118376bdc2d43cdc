package casework

import (
	"bytes"
	"encoding/binary"

	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/store"
)

func recordKey(recordID, subject string) []byte {
	k := make([]byte, 0, len(recordID)+1+len(subject))
	k = append(k, recordID...)
	k = append(k, 0)
	return append(k, subject...)
}

// Hook is the store change hook (store.Store.OnApply) that reopens the
// alerts of every record an import or change set updated, inside the
// transaction that applies it: an alert proposed or closed on content the
// record no longer has is open again, with the new content's
// fingerprints, and the reopening is in the audit log (actor "store",
// the new version in the entry). Open alerts take the new fingerprints
// too, so that a proposal is made on what the record now says. A store
// without alerts costs one bucket look-up.
func (c *Casework) Hook(tx *store.Tx, ap *store.Applied) error {
	byRecord := store.AlertRecords.Bucket(tx)
	alerts := store.Alerts.Bucket(tx)
	if byRecord == nil || alerts == nil || len(ap.Changes) == 0 {
		return nil
	}
	log := &auditWriter{tx: tx, now: c.now().UTC()}
	cur := byRecord.Cursor()
	for i := range ap.Changes {
		ch := &ap.Changes[i]
		if ch.Effect != store.EffectUpdate || ch.After == nil {
			continue
		}
		prefix := append([]byte(ch.ID), 0)
		var fp, ident string
		for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
			a, err := getAlert(alerts, binary.BigEndian.Uint64(v))
			if err != nil {
				return err
			}
			if fp == "" {
				fp, ident = decision.Content(ch.After), decision.Identity(ch.After)
			}
			if a.Fingerprint == fp {
				continue
			}
			was := a.Status
			a.Status, a.Proposal = Open, nil
			a.Fingerprint, a.IdentityFingerprint = fp, ident
			a.Hit.RecordName, a.Hit.SourceType = ch.After.Name, ch.After.SourceType
			a.Version, a.Updated = ap.Version, log.now
			a.Reopened++
			if err := putAlert(tx, a); err != nil {
				return err
			}
			if err := log.add(Entry{Actor: "store", Action: ActionReopen, Alert: a.ID, Subject: a.Subject, RecordID: a.Hit.RecordID,
				Status: Open, Version: ap.Version, Detail: "the record changed since the alert was " + was}); err != nil {
				return err
			}
		}
	}
	return log.close()
}
