// SPDX-License-Identifier: MIT
/*
 * Unit tests for the option table (src/cli/opts_table.c): every row of
 * rb_opts[] against an independent description of what it should be
 * (opts_fx.c's wants[]), parsed as each kind of row parses (values,
 * ranges, suffixes, choices, axes), and per-test applicability.
 */
#include "opts_fx.h"

/* ---- the table ---------------------------------------------------------- */

static void test_table_shape(void **state)
{
	size_t i, j;

	(void)state;
	assert_int_equal(rb_nopts, NWANTS);
	/* rb_cli.given has a byte per row. */
	assert_true(rb_nopts <= RB_OPTS_MAX);
	for (i = 0; i < NWANTS; i++) {
		if (rb_opt_index(wants[i].lname) < 0) {
			print_error("--%s missing from rb_opts\n", wants[i].lname);
			fail();
		}
	}
	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];
		const struct want *w = want_of(o->lname);

		if (!w) {
			print_error("row --%s is not expected: add it to wants[]\n", o->lname);
			fail();
		}
		assert_int_equal(rb_opt_index(o->lname), (int)i);
		if (o->sname != w->sname || o->type != w->type || o->off != w->off ||
		    applies_mask(o) != w->tests) {
			print_error("--%s: sname %d/%d type %d/%d off %zu/%zu tests %#x/%#x "
				    "(row/want)\n",
				    o->lname, o->sname, w->sname, o->type, w->type, o->off, w->off,
				    applies_mask(o), w->tests);
			fail();
		}
		switch (w->type) {
		case RB_OPT_U32:
		case RB_OPT_U64:
		case RB_OPT_I32:
		case RB_OPT_AXIS:
			if (o->min != w->min || o->max != w->max || o->pow2 != w->pow2 ||
			    o->suffix != w->suffix) {
				print_error("--%s: range %llu..%llu pow2 %d suffix %d, want "
					    "%llu..%llu pow2 %d suffix %d\n",
					    o->lname, (unsigned long long)o->min,
					    (unsigned long long)o->max, o->pow2, o->suffix,
					    (unsigned long long)w->min, (unsigned long long)w->max,
					    w->pow2, w->suffix);
				fail();
			}
			if (w->choices || o->choices)
				assert_string_equal(o->choices ? o->choices : "",
						    w->choices ? w->choices : "");
			break;
		case RB_OPT_STR:
			assert_int_equal(o->size, w->size);
			break;
		case RB_OPT_CHOICE:
			assert_non_null(o->choices);
			assert_string_equal(o->choices, w->choices);
			break;
		case RB_OPT_FLAG:
		case RB_OPT_LIST:
			break;
		}
		/* Help text for every row; an argument name exactly when it takes one. */
		assert_non_null(o->help);
		assert_true(o->help[0] != '\0');
		if ((o->argname == NULL) != (o->type == RB_OPT_FLAG)) {
			print_error("--%s: argname '%s' for type %d\n", o->lname,
				    o->argname ? o->argname : "(null)", o->type);
			fail();
		}
		/* Names unique. */
		for (j = 0; j < i; j++) {
			assert_string_not_equal(rb_opts[j].lname, o->lname);
			if (o->sname && rb_opts[j].sname == o->sname) {
				print_error("-%c used by --%s and --%s\n", o->sname,
					    rb_opts[j].lname, o->lname);
				fail();
			}
		}
	}
	assert_int_equal(rb_opt_index("no-such-option"), -1);
	assert_int_equal(rb_opt_index(""), -1);
}

/* ---- one name per knob -------------------------------------------------- */

/*
 * The rows whose JSON member is not their long name: names files of
 * earlier releases already carry (scripts and compare read them), or
 * one that would meet a document's own member.  A new row takes its
 * long name, '-' as '_', with its value's unit when it has one.
 */
static const struct {
	const char *lname, *json, *why;
} kept[] = {
	{ "iters", "iterations", "files since the first release" },
	{ "inline", "inline_size", "files since the first release" },
	{ "send-with-imm", "with_imm", "one member for --send-with-imm and --write-with-imm" },
	{ "run-id", "lock_run_id", "the document's own run_id is the process's UUID" },
	{ "run-hosts", "lock_hosts", "beside lock_run_id" },
};

static bool json_named_by_row(const char *lname, const char *json)
{
	static const char *const units[] = { "", "_us", "_ns", "_ms", "_s", "_bytes", "_pct" };
	char want[64];
	size_t i, n;

	n = (size_t)snprintf(want, sizeof(want), "%s", lname);
	for (i = 0; i < n; i++)
		if (want[i] == '-')
			want[i] = '_';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strncmp(json, want, n) && !strcmp(json + n, units[i]))
			return true;
	return false;
}

static void test_json_names(void **state)
{
	size_t i, j, k, used[sizeof(kept) / sizeof(kept[0])] = { 0 };

	(void)state;
	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		if (!o->json)
			continue;
		for (j = 0; j < i; j++)
			if (rb_opts[j].json && !strcmp(rb_opts[j].json, o->json)) {
				print_error("--%s and --%s both write \"%s\"\n", rb_opts[j].lname,
					    o->lname, o->json);
				fail();
			}
		if (json_named_by_row(o->lname, o->json))
			continue;
		for (k = 0; k < sizeof(kept) / sizeof(kept[0]); k++)
			if (!strcmp(kept[k].lname, o->lname) && !strcmp(kept[k].json, o->json))
				break;
		if (k == sizeof(kept) / sizeof(kept[0])) {
			print_error("--%s writes JSON \"%s\": name it after the option (its unit "
				    "suffix allowed)\n",
				    o->lname, o->json);
			fail();
		}
		used[k]++;
	}
	for (k = 0; k < sizeof(kept) / sizeof(kept[0]); k++)
		if (!used[k]) {
			print_error("kept[] lists --%s -> %s, which no row needs any more\n",
				    kept[k].lname, kept[k].json);
			fail();
		}
}

static void row_flag(const struct want *w)
{
	char lopt[40], sopt[4], err[256];
	struct rb_cli c;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	rb_cli_init(&c);
	assert_int_equal(u8_at(&c, w), 0);
	row_accepts(&c, w, lopt, NULL);
	assert_int_equal(u8_at(&c, w), 1);
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		row_accepts(&c, w, sopt, NULL);
		assert_int_equal(u8_at(&c, w), 1);
	}
	/* A flag takes no argument. */
	snprintf(lopt, sizeof(lopt), "--%s=1", w->lname);
	assert_int_equal(PARSE(&c, lowest_bit(w->tests), err, lopt), -EINVAL);
}

static void row_number(const struct want *w)
{
	char lopt[40], sopt[4], arg[32];
	struct rb_cli c, init;
	uint64_t v;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	rb_cli_init(&init);
	/* max or min must differ from the initial value, or "it changed" proves nothing */
	assert_true(num_at(&init, w) != w->max || num_at(&init, w) != w->min);

	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max);
	row_accepts(&c, w, lopt, arg);
	assert_int_equal(num_at(&c, w), w->max);
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min);
	row_accepts(&c, w, lopt, arg);
	assert_int_equal(num_at(&c, w), w->min);
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max);
		row_accepts(&c, w, sopt, arg);
		assert_int_equal(num_at(&c, w), w->max);
	}

	if (w->min > 0) {
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min - 1);
		row_rejects(w, arg, "out of range");
	}
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max + 1);
	row_rejects(w, arg, "out of range");
	row_rejects(w, "x", "not a number");
	row_rejects(w, "", "not a number");
	row_rejects(w, "12x", "not a number");
	row_rejects(w, "-1", "not a number");
	row_rejects(w, "99999999999999999999999", "in range");

	if (w->suffix) {
		row_accepts(&c, w, lopt, "1K");
		assert_int_equal(num_at(&c, w), KiB);
	} else {
		row_rejects(w, "1K", "not a number");
	}

	if (w->pow2) {
		for (v = w->min; v <= w->max; v *= 2) {
			snprintf(arg, sizeof(arg), "%llu", (unsigned long long)v);
			row_accepts(&c, w, lopt, arg);
			assert_int_equal(num_at(&c, w), v);
		}
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min + 1);
		row_rejects(w, arg, "not a power of two");
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max - 1);
		row_rejects(w, arg, "not a power of two");
	} else if (w->max - w->min >= 2) {
		/* a value that is not a power of two is fine */
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max - 1);
		row_accepts(&c, w, lopt, arg);
		assert_int_equal(num_at(&c, w), w->max - 1);
	}
}

/*
 * An axis whose items have a grammar of their own (the row's .item): the
 * texts of its smallest and largest values (wants[]' min and max); NULL
 * for an axis of numbers.
 */
static const char *const *item_of(const struct want *w)
{
	static const char *const cqmod[] = { "1", "65535/65535" };

	return !strcmp(w->lname, "cq-moderation") ? cqmod : NULL;
}

static void row_axis(const struct want *w)
{
	char lopt[40], sopt[4], arg[64], num[32];
	struct rb_cli c;
	const struct rb_axis *a;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	rb_cli_init(&c);
	assert_int_equal(axis_at(&c, w)->n, 0);

	if (item_of(w)) { /* items of its own grammar: the smallest and largest */
		snprintf(arg, sizeof(arg), "%s,%s", item_of(w)[0], item_of(w)[1]);
		row_accepts(&c, w, lopt, arg);
		a = axis_at(&c, w);
		assert_int_equal(a->n, 2);
		assert_int_equal(a->v[0], w->min);
		assert_int_equal(a->v[1], w->max);
		snprintf(arg, sizeof(arg), "%s,x", item_of(w)[0]);
		row_rejects(w, arg, NULL);
		row_rejects(w, "", NULL);
		return;
	}
	snprintf(arg, sizeof(arg), "%llu,%llu", (unsigned long long)w->min,
		 (unsigned long long)w->max);
	row_accepts(&c, w, lopt, arg);
	a = axis_at(&c, w);
	assert_int_equal(a->n, 2);
	assert_int_equal(a->v[0], w->min);
	assert_int_equal(a->v[1], w->max);
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max);
		row_accepts(&c, w, sopt, arg);
		a = axis_at(&c, w);
		assert_int_equal(a->n, 1);
		assert_int_equal(a->v[0], w->max);
	}

	if (w->min > 0) {
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min - 1);
		row_rejects(w, arg, "out of range");
	}
	/* one bad value anywhere in the list */
	snprintf(num, sizeof(num), "%llu", (unsigned long long)w->max + 1);
	snprintf(arg, sizeof(arg), "%llu,%s", (unsigned long long)w->min, num);
	row_rejects(w, arg, "out of range");
	row_rejects(w, arg, num);
	row_rejects(w, "x", "not a number");
	row_rejects(w, "", NULL);

	if (w->suffix) {
		row_accepts(&c, w, lopt, "1K");
		a = axis_at(&c, w);
		assert_int_equal(a->n, 1);
		assert_int_equal(a->v[0], KiB);
	} else {
		row_rejects(w, "1K", NULL);
	}
}

/* String rows that check their syntax: a value they take, one they refuse. */
static const struct {
	const char *lname, *good, *bad, *why;
} str_syntax[] = {
	/* a list of names, each at most 47 */
	{ "counters", "sent_pkts,rcvd_pkts", "sent_pkts,,x", NULL },
	{ "interval", "0.5", "0.05", "out of range" },
	{ "rate", "10Gbps", "10GBps", "bytes per second are not taken" },
	{ "flow-label", "1,0x2,1048575", "1,,2", "not a list of numbers" },
	{ "access", "local-write,remote-read", "remote-write", "need local-write" },
	{ "recommend", "p99<=20us", "p99<=x", "--recommend 'p99<=x': at 6: a number" },
	{ "use-cuda", "0000:3b:00.0", "gpu0", "not a GPU index or a PCI address" },
	{ "reuse", "zipf:0.99", "zipf:0", "from 0.001 to 10" },			/* issue 42 */
	{ "backoff", "exp:100..1000", "exp:9..1", "not none or exp:MIN..MAX" }, /* issue 42 */
};

static int str_syntax_of(const struct want *w)
{
	size_t i;

	for (i = 0; i < sizeof(str_syntax) / sizeof(str_syntax[0]); i++)
		if (!strcmp(str_syntax[i].lname, w->lname))
			return (int)i;
	return -1;
}

static void row_str(const struct want *w)
{
	char lopt[40], sopt[4], arg[512];
	struct rb_cli c;
	int k = str_syntax_of(w);

	assert_true(w->size < sizeof(arg));
	snprintf(lopt, sizeof(lopt), "--%s", w->lname);

	if (k >= 0) {
		row_accepts(&c, w, lopt, str_syntax[k].good);
		assert_string_equal(str_at(&c, w), str_syntax[k].good);
		row_rejects(w, str_syntax[k].bad, str_syntax[k].why);
	} else {
		memset(arg, 'a', w->size - 1);
		arg[w->size - 1] = '\0';
		row_accepts(&c, w, lopt, arg);
		assert_string_equal(str_at(&c, w), arg);
	}
	if (k < 1) { /* --counters takes a counter's name too */
		row_accepts(&c, w, lopt, "mlx5_0");
		assert_string_equal(str_at(&c, w), "mlx5_0");
	}
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		row_accepts(&c, w, sopt, "rxe0");
		assert_string_equal(str_at(&c, w), "rxe0");
	}
	memset(arg, 'a', w->size);
	arg[w->size] = '\0';
	/* --recommend's argument, optional, is taken apart only with < > or = in it */
	if (!strcmp(w->lname, "recommend"))
		memcpy(arg, "p99<=", 5);
	row_rejects(w, arg, "longer than");
}

/* Each repeatable row's syntax: two good values, two bad ones and what each refusal says. */
static const struct list_syntax {
	const char *lname, *good[2], *bad[2], *says[2];
} list_syntax[] = {
	{ "expect",
	  { "p50<=3us", "bw >= 90%link" },
	  { "bw>=9x0Gbps", "p50=<3us" },
	  { "at 6", "p50=<3us" } },
	{ "tag", { "rack=a12", "fw=2.1 new" }, { "=x", "rack" }, { "give KEY=VALUE", "'rack'" } },
};

static const struct list_syntax *list_syntax_of(const struct want *w)
{
	size_t i;

	for (i = 0; i < sizeof(list_syntax) / sizeof(list_syntax[0]); i++)
		if (!strcmp(list_syntax[i].lname, w->lname))
			return &list_syntax[i];
	print_error("--%s: a repeatable row without its syntax in list_syntax[]\n", w->lname);
	fail();
	return NULL;
}

/* One more value of a repeatable row into @c, as it is (no rb_cli_init()). */
static int set_list_once(struct rb_cli *c, const struct want *w, char *err, size_t len)
{
	char lopt[40], *argv[4];

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	argv[0] = keep(cmd_of(lowest_bit(w->tests)));
	argv[1] = keep(lopt);
	argv[2] = keep(list_syntax_of(w)->good[0]);
	argv[3] = NULL;
	return rb_cli_parse(c, argv[0], scope_of(lowest_bit(w->tests)), 3, argv, err, len);
}

/* A repeatable row: every value kept in order, each checked, a bound. */
static void row_list(const struct want *w)
{
	const struct list_syntax *x = list_syntax_of(w);
	const struct rb_strlist *l;
	char lopt[40], err[512];
	struct rb_cli c;
	int i;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	CHECK_OK(PARSE(&c, lowest_bit(w->tests), err, lopt, x->good[0], lopt, x->good[1]), err);
	l = (const struct rb_strlist *)((const char *)&c + w->off);
	assert_int_equal(l->n, 2);
	assert_string_equal(l->v[0], x->good[0]);
	assert_string_equal(l->v[1], x->good[1]);
	assert_true(given_name(&c, w->lname));
	/* The syntax is checked as it is parsed, naming the value and what is wrong. */
	CHECK_ERR(PARSE(&c, lowest_bit(w->tests), err, lopt, x->bad[0]), err, x->bad[0],
		  x->says[0]);
	CHECK_ERR(PARSE(&c, lowest_bit(w->tests), err, lopt, x->bad[1]), err, x->bad[1],
		  x->says[1]);
	rb_cli_init(&c);
	for (i = 0; i < RB_LIST_MAX; i++)
		CHECK_OK(set_list_once(&c, w, err, sizeof(err)), err);
	CHECK_ERR(set_list_once(&c, w, err, sizeof(err)), err, "more than");
}

static void row_choice(const struct want *w)
{
	char lopt[40], arg[32];
	const char *p = w->choices;
	struct rb_cli c;
	uint8_t i;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	for (i = 0; *p; i++) {
		size_t l = strcspn(p, "|");

		snprintf(arg, sizeof(arg), "%.*s", (int)l, p);
		row_accepts(&c, w, lopt, arg);
		if (u8_at(&c, w) != i) {
			print_error("%s %s: field %u, want %u\n", lopt, arg, u8_at(&c, w), i);
			fail();
		}
		/* a prefix or a longer word is not a choice */
		arg[l - 1] = '\0';
		row_rejects(w, arg, w->choices);
		snprintf(arg, sizeof(arg), "%.*sx", (int)l, p);
		row_rejects(w, arg, w->choices);
		p += l + (p[l] == '|');
	}
	assert_int_equal(i - 1, w->max);
	row_rejects(w, "nope", w->choices);
	row_rejects(w, "nope", "'nope'");
	row_rejects(w, "", w->choices);
}

/* An axis of choices (--poll busy,event): each word alone, then all of them. */
static void row_choice_axis(const struct want *w)
{
	char lopt[40], arg[64], all[128] = "";
	const char *p = w->choices;
	const struct rb_axis *a;
	struct rb_cli c;
	uint32_t i;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	for (i = 0; *p; i++) {
		size_t l = strcspn(p, "|");

		snprintf(arg, sizeof(arg), "%.*s", (int)l, p);
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? "," : "", arg);
		row_accepts(&c, w, lopt, arg);
		a = (const struct rb_axis *)((const char *)&c + w->off);
		assert_int_equal(a->n, 1);
		assert_int_equal(a->v[0], i);
		arg[l - 1] = '\0';
		row_rejects(w, arg, w->choices);
		p += l + (p[l] == '|');
	}
	assert_int_equal(i - 1, w->max);
	row_accepts(&c, w, lopt, all);
	a = (const struct rb_axis *)((const char *)&c + w->off);
	assert_int_equal(a->n, i);
	assert_int_equal(a->v[i - 1], w->max);
	row_rejects(w, "nope", "'nope'");
	row_rejects(w, "", w->choices);
}

/* Every row: values land in the right field, ranges and forms are checked. */
static void test_table_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NWANTS; i++) {
		const struct want *w = &wants[i];

		switch (w->type) {
		case RB_OPT_FLAG:
			row_flag(w);
			break;
		case RB_OPT_U32:
		case RB_OPT_U64:
		case RB_OPT_I32:
			row_number(w);
			break;
		case RB_OPT_AXIS:
			if (w->choices)
				row_choice_axis(w);
			else
				row_axis(w);
			break;
		case RB_OPT_STR:
			row_str(w);
			break;
		case RB_OPT_CHOICE:
			row_choice(w);
			break;
		case RB_OPT_LIST:
			row_list(w);
			break;
		}
	}
}

/* A valid argument for the row, NULL for flags. */
static const char *valid_arg(const struct want *w, char *buf, size_t len)
{
	switch (w->type) {
	case RB_OPT_FLAG:
		return NULL;
	case RB_OPT_STR:
		return str_syntax_of(w) > 0 ? str_syntax[str_syntax_of(w)].good : "x";
	case RB_OPT_LIST:
		return list_syntax_of(w)->good[0];
	case RB_OPT_CHOICE:
		snprintf(buf, len, "%.*s", (int)strcspn(w->choices, "|"), w->choices);
		return buf;
	case RB_OPT_AXIS:
		if (w->choices) {
			snprintf(buf, len, "%.*s", (int)strcspn(w->choices, "|"), w->choices);
			return buf;
		}
		if (item_of(w))
			return item_of(w)[1];
		snprintf(buf, len, "%llu", (unsigned long long)w->max);
		return buf;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)w->max);
		return buf;
	}
}

/* Every row for every command: accepted where it applies, else named. */
static void test_table_applies(void **state)
{
	char lopt[40], name[40], buf[32], err[256], need[80];
	struct rb_cli c;
	size_t i, b;

	(void)state;
	for (i = 0; i < NWANTS; i++) {
		const struct want *w = &wants[i];
		const char *arg = valid_arg(w, buf, sizeof(buf));

		snprintf(lopt, sizeof(lopt), "--%s", w->lname);
		name_of(w, name, sizeof(name));
		for (b = 0; b < NBITS; b++) {
			unsigned int bit = 1u << b;
			int ret = arg ? PARSE(&c, bit, err, lopt, arg) : PARSE(&c, bit, err, lopt);

			if (w->tests & bit) {
				if (ret) {
					print_error("%s %s for %s: %d (%s), want 0\n", lopt,
						    arg ? arg : "", bit_names[b], ret, err);
					fail();
				}
				continue;
			}
			snprintf(need, sizeof(need), "%s does not apply to %s", name, bit_names[b]);
			if (ret != -EINVAL || !strstr(err, need)) {
				print_error("%s for %s: %d '%s', want -EINVAL '%s'\n", lopt,
					    bit_names[b], ret, err, need);
				fail();
			}
			assert_int_equal(given_rows(&c), 0);
		}
	}
}

/* The cases the brief names, in the forms a user types. */
static void test_not_applicable(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--op", "fadd"), err, "--op does not apply to send_bw");
	CHECK_ERR(PARSE(&c, T_READ_LAT, err, "--inline", "0"), err,
		  "-I/--inline does not apply to read_lat");
	CHECK_ERR(PARSE(&c, T_READ_BW, err, "--inline", "0"), err,
		  "-I/--inline does not apply to read_bw");
	CHECK_ERR(PARSE(&c, T_ATOMIC_LAT, err, "--inline", "0"), err,
		  "-I/--inline does not apply to atomic_lat");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "-r", "16"), err,
		  "-r/--rx-depth does not apply to write_bw");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-q", "2"), err,
		  "-q/--qps does not apply to send_lat");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--recommend"), err,
		  "--recommend does not apply to server");
	/* The socket tests take none of the RDMA options, and say why. */
	CHECK_ERR(PARSE(&c, T_TCP_LAT, err, "-d", "rxe0"), err,
		  "-d/--device does not apply to tcp_lat (RDMA tests only)");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "-x", "1"), err,
		  "-x/--gid-index does not apply to tcp_bw (RDMA tests only)");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "-c", "UC"), err,
		  "-c/--transport does not apply to tcp_bw (RDMA tests only)");
	CHECK_ERR(PARSE(&c, T_TCP_LAT, err, "--odp"), err, "--odp does not apply to tcp_lat");
	CHECK_OK(PARSE(&c, T_TCP_BW, err, "-s", "64,64K", "-D", "2", "--bind", "192.0.2.2"), err);
	CHECK_ERR(PARSE(&c, T_TCP_LAT, err, "--recommend"), err,
		  "--recommend does not apply to tcp_lat");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "--reg-mode", "per-msg"), err,
		  "--reg-mode does not apply to tcp_bw");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "--cqe-poll", "4"), err,
		  "--cqe-poll does not apply to tcp_bw");
	CHECK_ERR(PARSE(&c, T_TOPO, err, "--csv", "out.csv"), err, "--csv does not apply to topo");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-s", "64"), err, "-s/--size does not apply to server");
	/* --srq: only tests with receives (send_lat, send_bw) */
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--srq"), err, "--srq does not apply to write_bw");
	CHECK_ERR(PARSE(&c, T_READ_LAT, err, "--use-srq"), err, "--srq does not apply to read_lat");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--hugepages"), err,
		  "--hugepages does not apply to server");
	/* --latency_gap: latency tests only, as perftest */
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--latency_gap", "5"), err,
		  "--latency-gap does not apply to write_bw");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--latency-gap", "5"), err,
		  "--latency-gap does not apply to send_bw");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--latency_gap", "250"), err);
	assert_int_equal(c.p.latency_gap_us, 250);
	CHECK_OK(PARSE(&c, T_READ_LAT, err, "--latency_gap=7"), err);
	assert_int_equal(c.p.latency_gap_us, 7);
	/* Up to 0.5 s: a longer wait for the next ping would outlast a --timeout. */
	CHECK_ERR(PARSE(&c, T_READ_LAT, err, "--latency_gap=500001"), err, "500000");
	/* the "atomic" command takes what either mode takes */
	CHECK_OK(PARSE(&c, T_ATOMIC, err, "--op", "cswap", "--mode", "bw", "-o", "4"), err);
	assert_int_equal(c.op, RB_OP_CSWAP);
	assert_int_equal(c.mode, 1);
	assert_int_equal(c.p.outstanding, 4);
	CHECK_ERR(PARSE(&c, T_ATOMIC, err, "-a"), err, "-a/--all does not apply to atomic");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_shape),    cmocka_unit_test(test_json_names),
		cmocka_unit_test(test_table_rows),     cmocka_unit_test(test_table_applies),
		cmocka_unit_test(test_not_applicable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
