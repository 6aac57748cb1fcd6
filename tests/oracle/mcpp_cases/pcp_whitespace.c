/* runs of blanks, tabs, leading and trailing white space */
#define W 5
a   b		c
	leading tab W
    leading spaces W
trailing spaces   
trailing tab	
mixed 	 	 run W 	 end
W	W  W
