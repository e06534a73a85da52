#include <stddef.h>
#define __init __attribute__((__section__(".init.text")))
#define __user
#define __rcu
#define __must_check __attribute__((__warn_unused_result__))
#define KERN_ERR "\0013"
#define PFX "demo: "
#define EXPORT_SYMBOL(sym) extern __typeof__(sym) sym
#define DEFINE_MUTEX(name) struct mutex name = { 0 }
#define DEFINE_PER_CPU(type, name) __typeof__(type) name
#define DECLARE_BITMAP(name, bits) unsigned long name[((bits) + 63) / 64]
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_for_each_entry(pos, head, member)                               \
	for (pos = container_of((head)->next, __typeof__(*pos), member);     \
	     &pos->member != (head);                                         \
	     pos = container_of(pos->member.next, __typeof__(*pos), member))
#define for_each_cpu(cpu, count) for ((cpu) = 0; (cpu) < (count); (cpu)++)
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define __SC_DECL(t, a) t a
#define __MAP1(m, t, a) m(t, a)
#define __MAP2(m, t, a, ...) m(t, a), __MAP1(m, __VA_ARGS__)
#define __MAP3(m, t, a, ...) m(t, a), __MAP2(m, __VA_ARGS__)
#define SYSCALL_DEFINE3(name, ...) long sys_##name(__MAP3(__SC_DECL, __VA_ARGS__))
struct mutex { int owner; };
struct list_head { struct list_head *next; };
struct counter { unsigned long hits; };
struct item {
	int value;
	struct list_head node;
};
int printk(const char *fmt, ...);
static DEFINE_MUTEX(demo_lock);
static DEFINE_PER_CPU(struct counter, demo_counters);
DEFINE_PER_CPU(unsigned long, demo_total) = 0;
static struct item __rcu *demo_current;
static DECLARE_BITMAP(demo_bits, 64+1);
/**
 * demo_sum() - Add up the values on a list.
 * @head: the list
 * @limit: stop after this many entries
 *
 * Walks the list with list_for_each_entry(). Returns the sum.
 */
static int __must_check demo_sum(struct list_head *head, unsigned int limit)
{
	struct item *pos;
	int sum = 0;
	list_for_each_entry(pos, head, node) {
		if (!limit--)
			break;
		sum += pos->value;
	}
	return min_t(int, sum, 1000);
}
EXPORT_SYMBOL(demo_sum);
static int __init demo_init(void)
{
	int cpu;
	for_each_cpu(cpu, 4)
		demo_total += cpu;
	printk(KERN_ERR PFX "ready\n");
	return 0;
}
SYSCALL_DEFINE3(demo, unsigned int, fd, char __user *, buf, size_t, count)
{
	if (!buf)
		return -14;
	return (long)fd + (long)count;
}
static struct item *demo_item(struct list_head *node)
{
	return container_of(node, struct item, node);
}
#ifdef CONFIG_DEMO_STATS
static void demo_account(int value)
{
	demo_total += value;
}
#else
static inline void demo_account(int value) { }
#endif
#ifdef CONFIG_DEMO_WIDE
static long demo_scale(long value, long factor)
#else
static long demo_scale(long value)
#endif
{
	long result = value;
	result *= 2;
	return result;
}
static int demo_class(int c)
{
	switch (c) {
	case '0' ... '9':
		return 1;
	default:
		return 0;
	}
}
#define DEMO_NAMES { \
	"first",  /* kept: more of the macro follows */ \
	"second", \
}
int demo_use(struct list_head *head)
{
	demo_account(demo_sum(head, 10));
	(void)demo_item(head);
	(void)demo_lock;
	(void)demo_counters;
	(void)demo_current;
	(void)demo_bits;
	(void)demo_init;
	(void)demo_class;
	return (int)demo_scale(3);
}
