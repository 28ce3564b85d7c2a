#define GIT_VERS "eb68bb8" 
