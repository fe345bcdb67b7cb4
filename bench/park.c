/* park.c - a listed program that waits for a signal: a thousand of them fill the daemon's state. */
#include <unistd.h>

int main(void)
{
	pause();
	return 0;
}
