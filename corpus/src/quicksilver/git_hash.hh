#define GIT_HASH "eb68bb8d6fc53de1f65011d4e79ff2ed0dd60f3b" 
