/* no blank after the directive name, or a tab instead of a space */
#if(1)
paren-directly
#endif
#if!0
bang-directly
#endif
#if	1
tab
#endif
#define	TABBED	tabvalue
#ifdef	TABBED
ifdef-tab TABBED
#endif
