// SPDX-License-Identifier: MIT
/* The topology tests' fixture (test_topo_*.c); topo_fx.h says what it holds. */
#include "topo_fx.h"

int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char dir[PATH_MAX], path[PATH_MAX], at[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");

	assert_non_null(f);
	f->name = *state;
	pathf(dir, sizeof(dir), "%s/topo/%s", TEST_DATA_DIR, f->name);
	pathf(f->tmp, sizeof(f->tmp), "%s/rb-topo-XXXXXX", tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(f->tmp));
	pathf(f->sysroot, sizeof(f->sysroot), "%s/sys", f->tmp);
	assert_int_equal(mkdir(f->sysroot, 0755), 0);
	/* The fixture's devices tree, read in place. */
	pathf(path, sizeof(path), "%s/sys/devices", dir);
	pathf(at, sizeof(at), "%s/devices", f->sysroot);
	assert_int_equal(symlink(path, at), 0);
	make_links(dir, f->sysroot);
	pathf(path, sizeof(path), "%s/topology.xml", dir);
	assert_int_equal(rb_topo_load(&f->topo, path), 0);
	*state = f;
	return 0;
}

int fx_teardown(void **state)
{
	struct fx *f = *state;

	/* FTW_PHYS: remove the links, never what they point to. */
	rm_tree(f->tmp);
	hwloc_topology_destroy(f->topo);
	free(f);
	return 0;
}

hwloc_bitmap_t set_of(const char *list)
{
	hwloc_bitmap_t s = hwloc_bitmap_alloc();

	assert_non_null(s);
	assert_int_equal(hwloc_bitmap_list_sscanf(s, list), 0);
	return s;
}

void read_dev(struct fx *f, const char *name, struct rb_dev_info *d)
{
	assert_int_equal(rb_dev_read(f->sysroot, name, d), 0);
}

int dev_node(struct fx *f, const char *name)
{
	struct rb_dev_info d;
	int node;

	read_dev(f, name, &d);
	node = rb_topo_dev_node(f->topo, &d);
	rb_dev_info_free(&d);
	return node;
}

static void enrich_mtu(struct rb_dev_info *d)
{
	int i;

	for (i = 0; i < d->n_ports; i++)
		d->ports[i].active_mtu = 1024;
}

int report(struct fx *f, const char *dev, char **table, json_t **j)
{
	struct rb_topo_env env = { .sysroot = f->sysroot, .topo = f->topo, .enrich = enrich_mtu };
	char path[PATH_MAX];
	size_t len;
	FILE *out = open_memstream(table, &len);
	json_error_t err;
	int ret;

	assert_non_null(out);
	pathf(path, sizeof(path), "%s/topo.json", f->tmp);
	unlink(path);
	ret = rb_topo_show_env(&env, dev, path, out);
	fclose(out);
	*j = json_load_file(path, 0, &err);
	return ret;
}
