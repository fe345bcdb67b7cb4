/* nop.c - does nothing: the unlisted program of the exec storm. */
int main(void)
{
	return 0;
}
