/* rules.c - the rule model's life: default settings, and freeing what a ruleset owns. */
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* Defaults documented in oompardon.conf(5); change both together. */
#define RESCAN_INTERVAL_DEFAULT_MS 60000u
#define KILLER_MEM_MIN_DEFAULT_PCT 10u
#define KILLER_SWAP_MIN_DEFAULT_PCT 10u
#define KILLER_GRACE_DEFAULT_MS 5000u

void ruleset_init(struct ruleset *rs)
{
	struct settings *s = &rs->settings;

	memset(rs, 0, sizeof(*rs));
	s->pardon_score = OOM_ADJ_MIN;
	s->inherit = false;
	s->rescan_interval_ms = RESCAN_INTERVAL_DEFAULT_MS;
	s->killer = false;
	s->killer_mem_min_pct = KILLER_MEM_MIN_DEFAULT_PCT;
	s->killer_swap_min_pct = KILLER_SWAP_MIN_DEFAULT_PCT;
	s->killer_grace_ms = KILLER_GRACE_DEFAULT_MS;
	s->killer_target = KILLER_TARGET_PROCESS;
	s->killer_last_resort = KILLER_LAST_WAIT;
}

void selector_free(struct selector *sel)
{
	size_t i;

	for (i = 0; i < sel->n_conds; i++)
		free(sel->conds[i].pattern);
	free(sel->conds);
	free(sel->text);
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void ruleset_free(struct ruleset *rs)
{
	size_t i, j;

	for (i = 0; i < rs->n_rules; i++) {
		for (j = 0; j < rs->rules[i].n_sels; j++)
			selector_free(&rs->rules[i].sels[j]);
		free(rs->rules[i].sels);
	}
	free(rs->rules);
	free(rs->settings.killer_scope);
	free(rs->settings.killer_psi);
	free(rs->settings.killer_last_resort_command);
	free(rs->settings.killer_hook);
	strv_free(rs->files, rs->n_files);
	strv_free(rs->errors, rs->n_errors);
	strv_free(rs->warnings, rs->n_warnings);
	memset(rs, 0, sizeof(*rs));
}
