// Package un converts the UN Security Council consolidated list (XML) into
// consolidated records (UN).
package un
